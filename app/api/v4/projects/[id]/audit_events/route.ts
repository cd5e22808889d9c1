// GET /api/v4/projects/:id/audit_events: the project's audit trail, with its runners' changes.
import { routes } from '@/lib/api/handler';
import { listProjectAuditEvents } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listProjectAuditEvents });
