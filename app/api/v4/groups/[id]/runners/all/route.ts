// GET /api/v4/groups/:id/runners/all: the same list as /groups/:id/runners.
import { routes } from '@/lib/api/handler';
import { listGroupRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listGroupRunners });
