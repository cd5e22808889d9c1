// POST /api/v4/runners/alert_rules/:rule_id/test_webhook (Runway extension, admins): queues a test delivery of the rule's webhook.
import { routes } from '@/lib/api/handler';
import { testAlertWebhookEndpoint } from '@/lib/fleet-alerts/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: testAlertWebhookEndpoint });
