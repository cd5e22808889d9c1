// GET /api/v4/audit_events/:id: one audit event (administrators).
import { routes } from '@/lib/api/handler';
import { showInstanceAuditEvent } from '@/lib/audit/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showInstanceAuditEvent });
