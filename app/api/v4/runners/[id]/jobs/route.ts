// GET /api/v4/runners/:id/jobs: the jobs a runner ran.
import { routes } from '@/lib/api/handler';
import { listRunnerJobsEndpoint } from '@/lib/runners/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listRunnerJobsEndpoint });
