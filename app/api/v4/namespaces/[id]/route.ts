// GET /api/v4/namespaces/:id (numeric id or URL-encoded full path)
import { endpoint, routes } from '@/lib/api/handler';
import { showNamespaceHandler } from '@/lib/namespaces/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: showNamespaceHandler }),
});
