// POST /api/v4/runners/verify: a runner checks its authentication token.
import { routes } from '@/lib/api/handler';
import { verifyEndpoint } from '@/lib/runners/agent-api';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: verifyEndpoint });
