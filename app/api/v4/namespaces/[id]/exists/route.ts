// GET /api/v4/namespaces/:id/exists (:id is the path asked about)
import { endpoint, routes } from '@/lib/api/handler';
import { namespaceExistsHandler } from '@/lib/namespaces/handlers';
import { namespaceExistsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ params: namespaceExistsParams, handle: namespaceExistsHandler }),
});
