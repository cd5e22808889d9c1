// POST /api/v4/user/runners: create a runner as the current user (returns its glrt- token once).
import { routes } from '@/lib/api/handler';
import { createUserRunnerEndpoint } from '@/lib/runners/registration-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: createUserRunnerEndpoint });
