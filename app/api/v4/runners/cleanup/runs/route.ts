// GET /api/v4/runners/cleanup/runs (Runway extension, admins): past stale-runner cleanups, newest first.
import { routes } from '@/lib/api/handler';
import { listCleanupRunsEndpoint } from '@/lib/runner-cleanup/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listCleanupRunsEndpoint });
