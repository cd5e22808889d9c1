// GET /api/v4/groups/:id/runners/counts (Runway extension): the group runner list's tab and status counts.
import { routes } from '@/lib/api/handler';
import { countGroupRunners } from '@/lib/runners/list-counts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: countGroupRunners });
