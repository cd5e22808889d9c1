// GET /api/v4/users/:user_id/projects: the user's personal projects the caller may see (id or username)
import { endpoint, routes } from '@/lib/api/handler';
import { listProjectsParams } from '@/lib/namespaces/schema';
import { listUserProjects } from '@/lib/projects/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listProjectsParams, handle: listUserProjects }),
});
