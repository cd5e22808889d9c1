// GET /api/v4/groups/:id/runners: runners available to the group (its own, its ancestors', instance).
import { routes } from '@/lib/api/handler';
import { listGroupRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listGroupRunners });
