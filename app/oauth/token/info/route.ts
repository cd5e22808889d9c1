// GET /oauth/token/info: Runway has no OAuth provider: Doorkeeper-shaped JSON errors (lib/oauth/handlers.ts).
import { routes } from '@/lib/api/handler';
import { tokenInfo } from '@/lib/oauth/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: tokenInfo });
