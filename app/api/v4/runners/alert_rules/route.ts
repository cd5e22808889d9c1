// /api/v4/runners/alert_rules (Runway extension, admins): GET lists the fleet alert rules, POST creates one.
import { routes } from '@/lib/api/handler';
import { createAlertRuleEndpoint, listAlertRulesEndpoint } from '@/lib/fleet-alerts/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listAlertRulesEndpoint, POST: createAlertRuleEndpoint });
