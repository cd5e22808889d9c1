// Reading the audit trail: filters become one indexed WHERE (entity, target, author, created_at), newest
// first by id. Offset pages count; keyset pages continue below the last id seen.
import { db, type Prisma } from '../db/client';
import type { AuditEvent } from '../db/generated/client';
import { RUNNER_TARGET_TYPE } from './service';

export interface AuditFilter {
  entityType?: string;
  entityId?: number;
  /** A project's trail: events on the project, and on the runners enabled in it. */
  projectId?: number;
  /** A group's trail: events on the group (which include those of its runners). */
  groupId?: number;
  /** One runner's events. */
  runnerId?: number;
  /** Only events this user made (GitLab's limit for Developers). */
  authorId?: number;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Keyset: ids below this one. */
  beforeId?: number;
}

async function whereOf(f: AuditFilter): Promise<Prisma.AuditEventWhereInput> {
  const and: Prisma.AuditEventWhereInput[] = [];
  if (f.entityType !== undefined) and.push({ entityType: f.entityType });
  if (f.entityId !== undefined) and.push({ entityId: f.entityId });
  if (f.groupId !== undefined) and.push({ entityType: 'Group', entityId: f.groupId });
  if (f.projectId !== undefined) {
    const links = await db().runnerProject.findMany({ where: { projectId: f.projectId }, select: { runnerId: true } });
    and.push({
      OR: [
        { entityType: 'Project', entityId: f.projectId },
        ...(links.length ? [{ targetType: RUNNER_TARGET_TYPE, targetId: { in: links.map((l) => l.runnerId) } }] : []),
      ],
    });
  }
  if (f.runnerId !== undefined) and.push({ targetType: RUNNER_TARGET_TYPE, targetId: f.runnerId });
  if (f.authorId !== undefined) and.push({ authorId: f.authorId });
  if (f.createdAfter || f.createdBefore) and.push({ createdAt: { gte: f.createdAfter, lte: f.createdBefore } });
  if (f.beforeId !== undefined) and.push({ id: { lt: f.beforeId } });
  return and.length ? { AND: and } : {};
}

export async function listAuditEvents(f: AuditFilter, offset: number, limit: number): Promise<AuditEvent[]> {
  return db().auditEvent.findMany({ where: await whereOf(f), orderBy: { id: 'desc' }, skip: offset, take: limit });
}

export async function countAuditEvents(f: AuditFilter): Promise<number> {
  return db().auditEvent.count({ where: await whereOf(f) });
}

/** One event within the filter's scope, or null. */
export async function findAuditEvent(id: number, f: AuditFilter): Promise<AuditEvent | null> {
  return db().auditEvent.findFirst({ where: { AND: [{ id }, await whereOf(f)] } });
}
