// Who may read which audit events (GitLab's read_*_audit_events). The one place these decisions are made;
// the decisions are pure functions of the reader's role, tested as a matrix (policy.test.ts).
//   instance:  administrators only.
//   group:     Owners read every event of the group; Developers and Maintainers only their own; the
//              single-event endpoint is for Owners only.
//   project:   Maintainers and Owners read every event; Developers only their own; the single-event
//              endpoint is for Maintainers and above.
//   runner:    lib/runners/policy.ts (canReadRunnerAuditEvents): whoever may edit the runner.
import type { Actor } from '../api/authenticate';
import { AccessLevel, groupAccessLevel, projectAccessLevel } from '../namespaces/access';

/** How much of a scope's trail a reader sees: every event, only events they authored, or none. */
export type AuditReach = 'all' | 'own' | 'none';

export interface Reader {
  admin: boolean;
  /** The reader's effective access level in the group or project (0 when not a member). */
  level: number;
}

export const canReadInstanceAuditEvents = (r: Pick<Reader, 'admin'>): boolean => r.admin;

export function groupAuditReach(r: Reader): AuditReach {
  if (r.admin || r.level >= AccessLevel.OWNER) return 'all';
  return r.level >= AccessLevel.DEVELOPER ? 'own' : 'none';
}

export const canReadGroupAuditEvent = (r: Reader): boolean => r.admin || r.level >= AccessLevel.OWNER;

export function projectAuditReach(r: Reader): AuditReach {
  if (r.admin || r.level >= AccessLevel.MAINTAINER) return 'all';
  return r.level >= AccessLevel.DEVELOPER ? 'own' : 'none';
}

export const canReadProjectAuditEvent = (r: Reader): boolean => r.admin || r.level >= AccessLevel.MAINTAINER;

/** The reader of a group or project, with their level looked up (admins need no lookup). */
export async function groupReader(actor: Actor, groupId: number): Promise<Reader> {
  return { admin: actor.user.admin, level: actor.user.admin ? 0 : await groupAccessLevel(actor.user.id, groupId) };
}

export async function projectReader(actor: Actor, projectId: number): Promise<Reader> {
  return { admin: actor.user.admin, level: actor.user.admin ? 0 : await projectAccessLevel(actor.user.id, projectId) };
}
