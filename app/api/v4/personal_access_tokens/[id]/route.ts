// GET, DELETE /api/v4/personal_access_tokens/:id
import { endpoint, routes } from '@/lib/api/handler';
import { deleteToken, showToken } from '@/lib/tokens/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: showToken }),
  DELETE: endpoint({ handle: deleteToken }),
});
