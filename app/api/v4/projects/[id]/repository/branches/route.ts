// GET /api/v4/projects/:id/repository/branches
import { endpoint, routes } from '@/lib/api/handler';
import { listBranchesHandler, listBranchesParams } from '@/lib/repositories/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listBranchesParams, handle: listBranchesHandler }),
});
