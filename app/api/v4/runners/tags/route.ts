// GET /api/v4/runners/tags?search= (Runway extension): tag names for the runner list's suggestions, admins.
import { routes } from '@/lib/api/handler';
import { listRunnerTags } from '@/lib/runners/list-counts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listRunnerTags });
