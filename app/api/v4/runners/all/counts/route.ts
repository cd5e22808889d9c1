// GET /api/v4/runners/all/counts (Runway extension): the runner list's tab and status counts, admins.
import { routes } from '@/lib/api/handler';
import { countAllRunners } from '@/lib/runners/list-counts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: countAllRunners });
