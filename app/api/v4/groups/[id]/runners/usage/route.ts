// GET /api/v4/groups/:id/runners/usage?from=&to=&runner_type=: the usage of the runners a group owns, as CSV (Runway extension, Owners).
import { routes } from '@/lib/api/handler';
import { groupRunnerUsage } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: groupRunnerUsage });
