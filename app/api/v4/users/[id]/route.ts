// GET /api/v4/users/:id
import { endpoint, routes } from '@/lib/api/handler';
import { numericIdRoute, showUser } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', scopes: [{ scope: 'read_user', readOnly: true }], before: numericIdRoute, handle: showUser }),
});
