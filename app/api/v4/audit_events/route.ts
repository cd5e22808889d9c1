// GET /api/v4/audit_events: the instance's audit trail (administrators).
import { routes } from '@/lib/api/handler';
import { listInstanceAuditEvents } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listInstanceAuditEvents });
