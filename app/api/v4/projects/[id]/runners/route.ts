// GET /api/v4/projects/:id/runners (runners available to the project), POST (enable a runner in it).
import { routes } from '@/lib/api/handler';
import { assignRunnerEndpoint } from '@/lib/runners/handlers';
import { listProjectRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listProjectRunners, POST: assignRunnerEndpoint });
