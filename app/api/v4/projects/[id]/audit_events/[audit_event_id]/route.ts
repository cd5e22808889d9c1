// GET /api/v4/projects/:id/audit_events/:audit_event_id: one event of the project (Maintainers+).
import { routes } from '@/lib/api/handler';
import { showProjectAuditEvent } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showProjectAuditEvent });
