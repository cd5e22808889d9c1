// POST /api/v4/runners/:id/reset_authentication_token: rotate a runner's token as a user who may update it.
import { routes } from '@/lib/api/handler';
import { resetByIdEndpoint } from '@/lib/runners/registration-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetByIdEndpoint });
