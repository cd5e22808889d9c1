// GET /api/v4/runners/fleet/status: runners by status now (Runway extension, admins).
import { routes } from '@/lib/api/handler';
import { fleetStatus } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: fleetStatus });
