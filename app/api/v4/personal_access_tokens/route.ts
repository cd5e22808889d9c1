// GET /api/v4/personal_access_tokens
import { endpoint, routes } from '@/lib/api/handler';
import { listOwnTokens } from '@/lib/tokens/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: listOwnTokens }),
});
