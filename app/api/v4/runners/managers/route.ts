// DELETE /api/v4/runners/managers: a runner manager unregisters itself (token + system_id).
import { routes } from '@/lib/api/handler';
import { deleteManagerEndpoint } from '@/lib/runner-agent/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ DELETE: deleteManagerEndpoint });
