// GET /api/v4/runners/:id/audit_events: a runner's changes (Runway extension, its Activity tab).
import { routes } from '@/lib/api/handler';
import { listRunnerAuditEvents } from '@/lib/runners/audit-handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: listRunnerAuditEvents });
