// GET /api/v4/projects/:id/repository/commits/:sha
import { endpoint, routes } from '@/lib/api/handler';
import { showCommitHandler, showCommitParams } from '@/lib/repositories/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: showCommitParams, handle: showCommitHandler }),
});
