// GET /api/v4/projects/:id/runners/all: the same list as /projects/:id/runners.
import { routes } from '@/lib/api/handler';
import { listProjectRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listProjectRunners });
