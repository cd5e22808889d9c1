// GET /api/v4/user
import { endpoint, routes } from '@/lib/api/handler';
import { currentUser } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], handle: currentUser }),
});
