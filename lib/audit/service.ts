// Writing the audit trail of runner changes. Every writer calls these inside the transaction of its change,
// so an event exists exactly when the change committed: a refused or rolled-back change leaves no row.
// The shape follows GitLab's audit events: the entity is the scope the runner belongs to (the instance,
// its group, or its project), the target is the runner itself (target_type 'Ci::Runner').
import type { Actor } from '../api/authenticate';
import type { Prisma } from '../db/client';
import { clientIp } from '../rate-limits/client-ip';

type Tx = Prisma.TransactionClient;

/** Who made a change: a signed-in user, the runner with its own authentication token, a registration token, or Runway itself. */
export type AuditActor =
  | { kind: 'user'; id: number; name: string; email?: string | null }
  | { kind: 'runner'; runnerId: number }
  | { kind: 'registration_token'; scope: AuditScope }
  | { kind: 'system'; name: string };

export type AuditScope = { type: 'instance' } | { type: 'group'; id: number } | { type: 'project'; id: number };

export type RunnerAuditAction = 'create' | 'register' | 'update' | 'pause' | 'resume' | 'delete' | 'assign' | 'unassign' | 'reset_authentication_token';

/** GitLab's event names where GitLab has one (ci_runner_created, _registered, _unregistered, ...). */
export const RUNNER_EVENT_NAMES: Record<RunnerAuditAction, string> = {
  create: 'ci_runner_created',
  register: 'ci_runner_registered',
  update: 'ci_runner_updated',
  pause: 'ci_runner_paused',
  resume: 'ci_runner_resumed',
  delete: 'ci_runner_unregistered',
  assign: 'ci_runner_assigned_to_project',
  unassign: 'ci_runner_unassigned_from_project',
  reset_authentication_token: 'ci_runner_authentication_token_reset',
};
export const REGISTRATION_TOKEN_RESET_EVENT = 'ci_runner_token_reset';

export const INSTANCE_ENTITY_TYPE = 'Gitlab::Audit::InstanceScope';
export const INSTANCE_ENTITY_ID = 1;
export const INSTANCE_ENTITY_PATH = 'gitlab_instance';
export const RUNNER_TARGET_TYPE = 'Ci::Runner';

// Keys that must never be stored, whatever a caller passes in details.
const SECRET_KEY = /token|password|secret|digest/i;

export interface RunnerAuditInput {
  actor: AuditActor;
  /** The client's address (see auditIp), or null when there is no request (the background worker). */
  ip: string | null;
  runnerId: number;
  action: RunnerAuditAction;
  /**
   * Extra facts: `changes` ({field: {from, to}}) for update, `project_id` for assign/unassign,
   * `via` ('id' | 'token' | 'cleanup') for delete. Keys naming tokens or secrets are dropped.
   */
  details?: Record<string, unknown>;
}

/** The audit author of a user request (the impersonating admin stays visible in the details). */
export function userActor(actor: Actor): AuditActor {
  return { kind: 'user', id: actor.user.id, name: actor.user.name, email: actor.user.email };
}

/** The address a change came from, as the per-IP limits see it (a client cannot forge it with a header). */
export function auditIp(req: Request): string | null {
  const ip = clientIp(req.headers);
  return ip === 'unknown' ? null : ip;
}

function author(actor: AuditActor): { id: number; name: string; klass: string; email?: string | null } {
  switch (actor.kind) {
    case 'user':
      return { id: actor.id, name: actor.name, klass: 'User', email: actor.email };
    case 'runner':
      return { id: -1, name: `Runner #${actor.runnerId} (authentication token)`, klass: 'Ci::Runner' };
    case 'registration_token':
      return { id: -1, name: `Registration token (${actor.scope.type})`, klass: 'Gitlab::Audit::CiRunnerTokenAuthor' };
    case 'system':
      return { id: -1, name: actor.name, klass: 'Gitlab::Audit::UnauthenticatedAuthor' };
  }
}

function sanitize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitize);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k)) out[k] = sanitize(v);
    return out;
  }
  return value;
}

interface Entity {
  type: string;
  id: number;
  path: string;
}

async function scopeEntity(tx: Tx, scope: AuditScope): Promise<Entity> {
  if (scope.type === 'group') {
    const g = await tx.namespace.findUnique({ where: { id: scope.id }, select: { fullPath: true } });
    return { type: 'Group', id: scope.id, path: g?.fullPath ?? String(scope.id) };
  }
  if (scope.type === 'project') {
    const p = await tx.project.findUnique({ where: { id: scope.id }, select: { fullPath: true } });
    return { type: 'Project', id: scope.id, path: p?.fullPath ?? String(scope.id) };
  }
  return { type: INSTANCE_ENTITY_TYPE, id: INSTANCE_ENTITY_ID, path: INSTANCE_ENTITY_PATH };
}

/** GitLab's runner page path, which GitLab stores as the target details. */
function runnerPath(runner: { id: number; runnerType: string }, entity: Entity): string {
  if (runner.runnerType === 'group_type') return `/groups/${entity.path}/-/runners/${runner.id}`;
  if (runner.runnerType === 'project_type') return `/${entity.path}/-/runners/${runner.id}`;
  return `/admin/runners/${runner.id}`;
}

const MESSAGES: Record<RunnerAuditAction, string> = {
  create: 'Created CI runner',
  register: 'Registered CI runner',
  update: 'Updated CI runner',
  pause: 'Paused CI runner',
  resume: 'Resumed CI runner',
  delete: 'Unregistered CI runner',
  assign: 'Assigned CI runner to project',
  unassign: 'Unassigned CI runner from project',
  reset_authentication_token: 'Reset CI runner authentication token',
};

async function insert(
  tx: Tx,
  row: {
    actor: AuditActor;
    ip: string | null;
    entity: Entity;
    eventName: string;
    message: string;
    target: { id: number; type: string; details: string };
    details: Record<string, unknown>;
  },
): Promise<void> {
  const a = author(row.actor);
  const details = {
    custom_message: row.message,
    ...(sanitize(row.details) as Record<string, unknown>),
    author_name: a.name,
    author_class: a.klass,
    ...(a.email ? { author_email: a.email } : {}),
    target_id: row.target.id,
    target_type: row.target.type,
    target_details: row.target.details,
    ip_address: row.ip,
    entity_path: row.entity.path,
  };
  await tx.auditEvent.create({
    data: {
      authorId: a.id,
      authorName: a.name,
      entityId: row.entity.id,
      entityType: row.entity.type,
      entityPath: row.entity.path,
      targetId: row.target.id,
      targetType: row.target.type,
      targetDetails: row.target.details,
      eventName: row.eventName,
      ipAddress: row.ip,
      details: details as Prisma.InputJsonValue,
    },
  });
}

/**
 * Records one change of a runner, inside the transaction `tx` that makes the change.
 *
 * Call it while the runner row still exists (for a delete: before the DELETE statement), since the
 * event's scope and path come from the row. Enabling or disabling in a project is recorded on that
 * project (`details.project_id`); every other change on the runner's owner (instance, group, project).
 * Stale-runner cleanup calls it with `{ action: 'delete', details: { via: 'cleanup' } }`.
 */
export async function recordRunnerAudit(tx: Tx, input: RunnerAuditInput): Promise<void> {
  const runner = await tx.runner.findUnique({
    where: { id: input.runnerId },
    select: { id: true, runnerType: true, groupId: true, ownerProjectId: true, description: true },
  });
  if (!runner) throw new Error(`recordRunnerAudit: runner ${input.runnerId} does not exist in this transaction`);
  const details = input.details ?? {};
  let scope: AuditScope = { type: 'instance' };
  if (runner.runnerType === 'group_type' && runner.groupId) scope = { type: 'group', id: runner.groupId };
  if (runner.runnerType === 'project_type') {
    const owner =
      runner.ownerProjectId ??
      (await tx.runnerProject.findFirst({ where: { runnerId: runner.id }, orderBy: { id: 'asc' }, select: { projectId: true } }))?.projectId;
    if (owner) scope = { type: 'project', id: owner };
  }
  const ownerEntity = await scopeEntity(tx, scope);
  const projectId = typeof details.project_id === 'number' ? details.project_id : null;
  const entity =
    (input.action === 'assign' || input.action === 'unassign') && projectId ? await scopeEntity(tx, { type: 'project', id: projectId }) : ownerEntity;
  await insert(tx, {
    actor: input.actor,
    ip: input.ip,
    entity,
    eventName: RUNNER_EVENT_NAMES[input.action],
    message: MESSAGES[input.action],
    target: { id: runner.id, type: RUNNER_TARGET_TYPE, details: runnerPath(runner, ownerEntity) },
    details: { action: input.action, runner_type: runner.runnerType, runner_description: runner.description, ...details },
  });
}

/** Records the reset of an instance, group or project runner registration token (never the token). */
export async function recordRegistrationTokenReset(tx: Tx, input: { actor: AuditActor; ip: string | null; scope: AuditScope }): Promise<void> {
  const entity = await scopeEntity(tx, input.scope);
  const targetType = entity.type === INSTANCE_ENTITY_TYPE ? INSTANCE_ENTITY_TYPE : entity.type;
  await insert(tx, {
    actor: input.actor,
    ip: input.ip,
    entity,
    eventName: REGISTRATION_TOKEN_RESET_EVENT,
    message: `Reset ${input.scope.type} runner registration token`,
    target: { id: entity.id, type: targetType, details: entity.path },
    details: { action: 'reset_registration_token' },
  });
}

/** GitLab's user_access_locked and user_access_unlocked (EE's User#lock_access! and #unlock_access!). */
export type UserAccessEvent = 'user_access_locked' | 'user_access_unlocked';

export interface UserAccessAuditInput {
  actor: AuditActor;
  ip: string | null;
  user: { id: number; username: string };
  event: UserAccessEvent;
  /** Why, after GitLab's "User access locked - " (e.g. "excessive failed login attempts"). */
  reason?: string;
  details?: Record<string, unknown>;
}

/** Records a lock or unlock of a user's sign-in on the user (entity and target), as GitLab does. */
export async function recordUserAccessAudit(tx: Tx, input: UserAccessAuditInput): Promise<void> {
  const { user } = input;
  const base = input.event === 'user_access_locked' ? 'User access locked' : 'User access unlocked';
  await insert(tx, {
    actor: input.actor,
    ip: input.ip,
    entity: { type: 'User', id: user.id, path: user.username },
    eventName: input.event,
    message: input.reason ? `${base} - ${input.reason}` : base,
    target: { id: user.id, type: 'User', details: user.username },
    details: input.details ?? {},
  });
}

/** GitLab's name for a runner usage export (EE's Ci::Runners::GenerateUsageCsvService and friends). */
export const RUNNER_USAGE_EXPORT_EVENT = 'ci_runner_usage_export';

/**
 * Records a runner usage export on its scope (the instance, or the group), as GitLab audits its usage
 * report: the period and runner type in the details. Runway streams the file at once instead of e-mailing it.
 */
export async function recordRunnerUsageExport(
  tx: Tx,
  input: { actor: AuditActor; ip: string | null; scope: AuditScope; fromDate: string; toDate: string; runnerType: string | null },
): Promise<void> {
  const entity = await scopeEntity(tx, input.scope);
  await insert(tx, {
    actor: input.actor,
    ip: input.ip,
    entity,
    eventName: RUNNER_USAGE_EXPORT_EVENT,
    message: 'Generated CI runner usage report',
    target: { id: entity.id, type: entity.type, details: entity.path },
    details: { from_date: input.fromDate, to_date: input.toDate, ...(input.runnerType ? { runner_type: input.runnerType } : {}) },
  });
}

/** Fleet alerts (Runway extension, lib/fleet-alerts): a rule fired or cleared, or an admin changed a rule. */
export type FleetAlertAuditEvent =
  'runner_alert_fired' | 'runner_alert_cleared' | 'runner_alert_rule_created' | 'runner_alert_rule_updated' | 'runner_alert_rule_deleted';

export const FLEET_ALERT_RULE_TARGET_TYPE = 'Runway::FleetAlertRule';

/** Records a fleet alert event on the instance, the rule as its target (its webhook secret never in the details). */
export async function recordFleetAlertAudit(
  tx: Tx,
  input: {
    actor: AuditActor;
    ip: string | null;
    event: FleetAlertAuditEvent;
    rule: { id: number; name: string };
    message: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await insert(tx, {
    actor: input.actor,
    ip: input.ip,
    entity: { type: INSTANCE_ENTITY_TYPE, id: INSTANCE_ENTITY_ID, path: INSTANCE_ENTITY_PATH },
    eventName: input.event,
    message: input.message,
    target: { id: input.rule.id, type: FLEET_ALERT_RULE_TARGET_TYPE, details: input.rule.name },
    details: input.details ?? {},
  });
}

/** The gitlab-runner release list behind the upgrade statuses (Runway extension, lib/runners/releases) was replaced. */
export const RUNNER_RELEASE_LIST_EVENT = 'runner_release_list_replaced';
export const RUNNER_RELEASE_LIST_TARGET_TYPE = 'Runway::RunnerReleaseList';

/** Records a replaced release list on the instance: where it came from, how many releases and statuses changed. */
export async function recordReleaseListAudit(
  tx: Tx,
  input: { actor: AuditActor; source: string; fetchedAt: Date; releases: number; statusesChanged: number },
): Promise<void> {
  await insert(tx, {
    actor: input.actor,
    ip: null,
    entity: { type: INSTANCE_ENTITY_TYPE, id: INSTANCE_ENTITY_ID, path: INSTANCE_ENTITY_PATH },
    eventName: RUNNER_RELEASE_LIST_EVENT,
    message: 'Replaced the gitlab-runner release list',
    target: { id: 1, type: RUNNER_RELEASE_LIST_TARGET_TYPE, details: 'gitlab-runner releases' },
    details: { source: input.source, fetched_at: input.fetchedAt.toISOString(), releases: input.releases, statuses_changed: input.statusesChanged },
  });
}
