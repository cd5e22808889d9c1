// GET /api/v4/namespaces: the caller's namespaces (admins: all)
import { endpoint, routes } from '@/lib/api/handler';
import { listNamespacesHandler } from '@/lib/namespaces/handlers';
import { listNamespacesParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ params: listNamespacesParams, handle: listNamespacesHandler }),
});
