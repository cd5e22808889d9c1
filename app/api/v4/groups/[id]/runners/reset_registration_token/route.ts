// POST /api/v4/groups/:id/runners/reset_registration_token: new group registration token (Owner).
import { routes } from '@/lib/api/handler';
import { resetGroupRegistrationTokenEndpoint } from '@/lib/runners/registration-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetGroupRegistrationTokenEndpoint });
