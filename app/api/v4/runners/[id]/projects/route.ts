// GET /api/v4/runners/:id/projects: the projects a runner is enabled in (paginated).
import { routes } from '@/lib/api/handler';
import { listRunnerProjects } from '@/lib/runners/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listRunnerProjects });
