// GET /api/v4/runners/fleet/status_history?days=30: the daily snapshots of runners by status (Runway extension, admins).
import { routes } from '@/lib/api/handler';
import { fleetStatusHistory } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: fleetStatusHistory });
