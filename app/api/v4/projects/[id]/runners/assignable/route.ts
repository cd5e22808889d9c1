// GET /api/v4/projects/:id/runners/assignable (Runway extension): runners the caller may enable in the project.
import { routes } from '@/lib/api/handler';
import { listAssignableProjectRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listAssignableProjectRunners });
