// GET /api/v4/groups/:id/projects
import { endpoint, routes } from '@/lib/api/handler';
import { listGroupProjectsHandler } from '@/lib/projects/handlers';
import { listGroupProjectsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listGroupProjectsParams, handle: listGroupProjectsHandler }),
});
