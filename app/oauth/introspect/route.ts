// POST /oauth/introspect: Runway has no OAuth provider: Doorkeeper-shaped JSON errors (lib/oauth/handlers.ts).
import { routes } from '@/lib/api/handler';
import { introspect } from '@/lib/oauth/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: introspect });
