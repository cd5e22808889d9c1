// GET /api/v4/groups/:id/audit_events: the group's audit trail.
import { routes } from '@/lib/api/handler';
import { listGroupAuditEvents } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listGroupAuditEvents });
