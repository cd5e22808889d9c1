// POST /api/v4/runners/reset_authentication_token: rotate the runner token using the current one.
import { routes } from '@/lib/api/handler';
import { resetByTokenEndpoint } from '@/lib/runner-agent/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetByTokenEndpoint });
