// DELETE /api/v4/projects/:id/runners/:runner_id: disable a runner in the project.
import { routes } from '@/lib/api/handler';
import { unassignRunnerEndpoint } from '@/lib/runners/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ DELETE: unassignRunnerEndpoint });
