// GET /api/v4/runners/:id/managers: a runner's managers (not paginated).
import { routes } from '@/lib/api/handler';
import { listRunnerManagers } from '@/lib/runners/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listRunnerManagers });
