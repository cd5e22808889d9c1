// POST /api/v4/users/:user_id/personal_access_tokens (admin)
import { endpoint, routes } from '@/lib/api/handler';
import { adminOnly, createTokenForUser } from '@/lib/tokens/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], before: adminOnly, handle: createTokenForUser }),
});
