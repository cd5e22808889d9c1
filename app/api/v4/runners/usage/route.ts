// GET /api/v4/runners/usage?from=&to=&runner_type=: the instance's runner usage as CSV (Runway extension, admins).
import { routes } from '@/lib/api/handler';
import { runnerUsage } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: runnerUsage });
