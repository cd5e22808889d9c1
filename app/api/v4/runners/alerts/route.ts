// GET /api/v4/runners/alerts?state=firing|resolved (Runway extension, admins): fleet alerts, newest first.
import { routes } from '@/lib/api/handler';
import { listAlertsEndpoint } from '@/lib/fleet-alerts/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listAlertsEndpoint });
