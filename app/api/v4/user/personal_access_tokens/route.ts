// POST /api/v4/user/personal_access_tokens
import { endpoint, routes } from '@/lib/api/handler';
import { createOwnToken } from '@/lib/tokens/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], handle: createOwnToken }),
});
