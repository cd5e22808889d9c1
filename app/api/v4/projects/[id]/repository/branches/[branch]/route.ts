// GET /api/v4/projects/:id/repository/branches/:branch
import { endpoint, routes } from '@/lib/api/handler';
import { showBranchHandler } from '@/lib/repositories/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: showBranchHandler }),
});
