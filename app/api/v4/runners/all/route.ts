// GET /api/v4/runners/all: every runner (admins).
import { routes } from '@/lib/api/handler';
import { listAllRunners } from '@/lib/runners/list-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listAllRunners });
