// GET /api/v4/runners/alert_rules/:rule_id/deliveries (Runway extension, admins): the rule's webhook deliveries, newest first.
import { routes } from '@/lib/api/handler';
import { listAlertDeliveriesEndpoint } from '@/lib/fleet-alerts/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listAlertDeliveriesEndpoint });
