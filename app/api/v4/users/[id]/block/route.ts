// POST /api/v4/users/:id/block (admin)
import { endpoint, routes } from '@/lib/api/handler';
import { numericIdRoute, blockUser } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], before: numericIdRoute, handle: blockUser }),
});
