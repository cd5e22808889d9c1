// An audit event as GitLab's API returns it (API::Entities::AuditEvent): fields in GitLab's order.
import type { AuditEvent } from '../db/generated/client';

export function auditEventEntity(e: AuditEvent) {
  return {
    id: e.id,
    author_id: e.authorId,
    entity_id: e.entityId,
    entity_type: e.entityType,
    event_name: e.eventName,
    details: e.details,
    created_at: e.createdAt.toISOString(),
  };
}
