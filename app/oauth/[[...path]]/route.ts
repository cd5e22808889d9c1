// Every other /oauth path (applications, device authorization, discovery...): a JSON 404, not the
// dashboard's page or its redirect to the sign-in page (lib/oauth/handlers.ts).
import { routes } from '@/lib/api/handler';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({});
