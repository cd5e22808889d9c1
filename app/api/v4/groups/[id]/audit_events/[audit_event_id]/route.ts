// GET /api/v4/groups/:id/audit_events/:audit_event_id: one event of the group (Owners).
import { routes } from '@/lib/api/handler';
import { showGroupAuditEvent } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showGroupAuditEvent });
