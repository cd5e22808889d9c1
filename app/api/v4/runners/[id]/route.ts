// GET/PUT/DELETE /api/v4/runners/:id: runner details, update (pause/resume), delete.
import { routes } from '@/lib/api/handler';
import { deleteRunnerEndpoint, showRunner, updateRunnerEndpoint } from '@/lib/runners/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showRunner, PUT: updateRunnerEndpoint, DELETE: deleteRunnerEndpoint });
