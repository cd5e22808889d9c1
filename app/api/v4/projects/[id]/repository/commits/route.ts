// GET /api/v4/projects/:id/repository/commits
import { endpoint, routes } from '@/lib/api/handler';
import { listCommitsHandler, listCommitsParams } from '@/lib/repositories/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listCommitsParams, handle: listCommitsHandler }),
});
