// POST /api/v4/runners/reset_registration_token: new instance registration token (admin).
import { routes } from '@/lib/api/handler';
import { resetInstanceRegistrationTokenEndpoint } from '@/lib/runners/registration-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetInstanceRegistrationTokenEndpoint });
