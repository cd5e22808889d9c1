// POST /api/v4/runners/verify: a runner checks its authentication token (also served by the fast path).
import { verifyRoute } from '@/lib/runner-agent/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = verifyRoute;
