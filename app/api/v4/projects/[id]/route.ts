// GET /api/v4/projects/:id (numeric id or URL-encoded full path)
import { endpoint, routes } from '@/lib/api/handler';
import { showProjectHandler } from '@/lib/namespaces/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', handle: showProjectHandler }),
});
