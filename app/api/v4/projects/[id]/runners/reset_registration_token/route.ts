// POST /api/v4/projects/:id/runners/reset_registration_token: new project registration token (Maintainer+).
import { routes } from '@/lib/api/handler';
import { resetProjectRegistrationTokenEndpoint } from '@/lib/runners/registration-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetProjectRegistrationTokenEndpoint });
