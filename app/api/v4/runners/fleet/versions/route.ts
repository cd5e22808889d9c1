// GET /api/v4/runners/fleet/versions: runner managers by version, newest and outdated marked (Runway extension, admins).
import { routes } from '@/lib/api/handler';
import { fleetVersions } from '@/lib/fleet/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: fleetVersions });
