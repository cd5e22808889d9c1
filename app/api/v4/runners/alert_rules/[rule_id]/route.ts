// /api/v4/runners/alert_rules/:rule_id (Runway extension, admins): GET, PUT and DELETE one fleet alert rule.
import { routes } from '@/lib/api/handler';
import { deleteAlertRuleEndpoint, showAlertRuleEndpoint, updateAlertRuleEndpoint } from '@/lib/fleet-alerts/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: showAlertRuleEndpoint,
  PUT: updateAlertRuleEndpoint,
  DELETE: deleteAlertRuleEndpoint,
});
