// Creating runners and rotating their credentials: registration with a registration token (POST /runners),
// creation by a user (POST /user/runners), unregistering, manager removal, verify, and the token resets.
// Each write is one transaction; rows whose token changes are locked first (SELECT … FOR UPDATE).
import { isRowId } from '../db/ids';
import type { Actor } from '../api/authenticate';
import { badRequest, forbidden, gone, notFound, validationError } from '../api/errors';
import { digest } from '../auth/secrets';
import { db } from '../db/client';
import type { RunnerAccessLevel, RunnerRegistrationType, RunnerType } from '../db/generated/client';
import { findGroup, findProject } from '../namespaces/resolve';
import { currentSettings } from '../settings/application';
import { instanceAllowsRegistrationTokens, namespaceAllowsRegistrationTokens } from '../settings/runner-registration';
import { canUpdateRunner } from './policy';
import { canManageRunnersOf, type RunnerOwnerScope } from './registration-policy';
import { writeTaggings } from './tags';
import {
  computeTokenExpiresAt,
  findRunnerByToken,
  lockRunnerByToken,
  newRegistrationToken,
  newRunnerToken,
  registrationTokenMatches,
  rotateRunnerToken,
} from './tokens';
import { fullMessagesSentence, hasErrors, validateRunnerAttributes } from './validation';
import { recordRegistrationTokenReset, recordRunnerAudit, userActor, type AuditActor, type AuditScope } from '../audit/service';

/** Where a request came from, for the audit trail. */
type Ip = string | null;

const scopeOf = (owner: Owner): AuditScope =>
  owner.runnerType === 'group_type'
    ? { type: 'group', id: owner.groupId! }
    : owner.runnerType === 'project_type'
      ? { type: 'project', id: owner.projectId! }
      : { type: 'instance' };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** RunnerRegistrationDetails: what register, /user/runners and verify answer. */
export const registrationDetails = (id: number, token: string, expiresAt: Date | null) => ({ id, token, token_expires_at: iso(expiresAt) });
/** ResetTokenResult of a runner token (expirable: the key is always there). */
export const resetTokenResult = (token: string, expiresAt: Date | null) => ({ token, token_expires_at: iso(expiresAt) });

export interface NewRunnerAttributes {
  description?: string | null;
  name?: string | null;
  maintenanceNote?: string | null;
  active?: boolean;
  locked?: boolean;
  runUntagged?: boolean;
  tagList?: string[];
  accessLevel?: RunnerAccessLevel;
  maximumTimeout?: number | null;
}

interface Owner {
  runnerType: RunnerType;
  groupId: number | null;
  projectId: number | null;
}

/** Validates, then inserts the runner with its token, owner links and tags, in one transaction. */
async function insertRunner(
  owner: Owner,
  a: NewRunnerAttributes,
  meta: { registrationType: RunnerRegistrationType; creatorId: number | null },
  onInvalid: (errors: Record<string, string[]>) => Error,
  audit: { actor: AuditActor; ip: Ip },
) {
  const tagList = a.tagList ?? [];
  const runUntagged = a.runUntagged ?? true;
  const errors = validateRunnerAttributes({
    description: a.description,
    name: a.name,
    maintenanceNote: a.maintenanceNote,
    maximumTimeout: a.maximumTimeout,
    runUntagged,
    tagList,
    tagListChanged: tagList.length > 0,
  });
  if (hasErrors(errors)) throw onInvalid(errors);
  const token = newRunnerToken(owner.runnerType, meta.registrationType);
  return db().$transaction(async (tx) => {
    const tokenExpiresAt = await computeTokenExpiresAt(
      { runnerType: owner.runnerType, groupId: owner.groupId, projectIds: owner.projectId ? [owner.projectId] : [] },
      tx,
    );
    const runner = await tx.runner.create({
      data: {
        runnerType: owner.runnerType,
        groupId: owner.groupId,
        ownerProjectId: owner.projectId,
        description: a.description ?? null,
        name: a.name ?? null,
        maintenanceNote: a.maintenanceNote ?? null,
        active: a.active ?? true,
        locked: a.locked ?? false,
        runUntagged,
        accessLevel: a.accessLevel ?? 'not_protected',
        maximumTimeout: a.maximumTimeout ?? null,
        tokenDigest: digest(token),
        tokenExpiresAt,
        registrationType: meta.registrationType,
        creatorId: meta.creatorId,
      },
    });
    if (owner.projectId) await tx.runnerProject.create({ data: { runnerId: runner.id, projectId: owner.projectId } });
    if (tagList.length) await writeTaggings(tx, runner.id, tagList);
    await recordRunnerAudit(tx, {
      ...audit,
      runnerId: runner.id,
      action: meta.registrationType === 'registration_token' ? 'register' : 'create',
      details: { paused: !(a.active ?? true), tag_list: tagList, locked: a.locked ?? false },
    });
    return registrationDetails(runner.id, token, tokenExpiresAt);
  });
}

// ------------------------------------------------------------------ POST /runners (registration token)

const INVALID_TOKEN = 'invalid token supplied';
const DISALLOWED = 'runner registration disallowed';

/**
 * Which owner a registration token belongs to, in GitLab's order: instance, then project, then group
 * (each only when that registrar is valid). 410 when the owner (or the instance) disallows tokens; 403
 * for an unknown token — except that an instance disallowing tokens answers 410 to any non-empty token.
 */
async function ownerOfRegistrationToken(token: string): Promise<Owner> {
  const settings = await currentSettings();
  if (token && registrationTokenMatches(settings.runnersRegistrationTokenDigest, token)) {
    if (!settings.allowRunnerRegistrationToken) throw gone(DISALLOWED);
    return { runnerType: 'instance_type', groupId: null, projectId: null };
  }
  const wanted = token ? digest(token) : null;
  if (wanted && settings.validRunnerRegistrars.includes('project')) {
    const project = await db().project.findUnique({ where: { runnersTokenDigest: wanted }, select: { id: true, namespaceId: true, runnersTokenDigest: true } });
    if (project && registrationTokenMatches(project.runnersTokenDigest, token)) {
      if (!(await namespaceAllowsRegistrationTokens(project.namespaceId))) throw gone(DISALLOWED);
      return { runnerType: 'project_type', groupId: null, projectId: project.id };
    }
  }
  if (wanted && settings.validRunnerRegistrars.includes('group')) {
    const group = await db().namespace.findFirst({ where: { runnersTokenDigest: wanted, kind: 'group' }, select: { id: true, runnersTokenDigest: true } });
    if (group && registrationTokenMatches(group.runnersTokenDigest, token)) {
      if (!(await namespaceAllowsRegistrationTokens(group.id))) throw gone(DISALLOWED);
      return { runnerType: 'group_type', groupId: group.id, projectId: null };
    }
  }
  if (token && !settings.allowRunnerRegistrationToken) throw gone(DISALLOWED);
  throw forbidden(INVALID_TOKEN);
}

export async function registerRunner(token: string, a: NewRunnerAttributes, ip: Ip) {
  const owner = await ownerOfRegistrationToken(token);
  const actor: AuditActor = { kind: 'registration_token', scope: scopeOf(owner) };
  return insertRunner(owner, a, { registrationType: 'registration_token', creatorId: null }, (e) => validationError(e), { actor, ip });
}

// ------------------------------------------------------------------ POST /user/runners

export async function createUserRunner(actor: Actor, input: { runnerType: RunnerType; groupId?: number; projectId?: number } & NewRunnerAttributes, ip: Ip) {
  let scope: RunnerOwnerScope;
  let owner: Owner;
  if (input.runnerType === 'group_type') {
    const group = input.groupId ? await db().namespace.findFirst({ where: { id: input.groupId, kind: 'group' }, select: { id: true } }) : null;
    if (!group) throw badRequest('Missing/invalid group');
    scope = { kind: 'group', groupId: group.id };
    owner = { runnerType: 'group_type', groupId: group.id, projectId: null };
  } else if (input.runnerType === 'project_type') {
    const project = isRowId(input.projectId) ? await db().project.findUnique({ where: { id: input.projectId }, select: { id: true } }) : null;
    if (!project) throw badRequest('Missing/invalid project');
    scope = { kind: 'project', projectId: project.id };
    owner = { runnerType: 'project_type', groupId: null, projectId: project.id };
  } else {
    scope = { kind: 'instance' };
    owner = { runnerType: 'instance_type', groupId: null, projectId: null };
  }
  if (!(await canManageRunnersOf(actor, scope))) throw forbidden('Insufficient permissions');
  return insertRunner(owner, input, { registrationType: 'authenticated_user', creatorId: actor.user.id }, (e) => badRequest(fullMessagesSentence(e)), {
    actor: userActor(actor),
    ip,
  });
}

// ------------------------------------------------------------------ runner-token operations

/** The runner of an (unexpired) authentication token, or GitLab's 403. */
export async function authenticateRunner(token: string) {
  const runner = await findRunnerByToken(token);
  if (!runner) throw forbidden();
  return runner;
}

/**
 * DELETE /runners: removes the runner holding the token. `precondition` sees the locked row's updated_at
 * (GitLab's destroy_conditionally! answers 412 when If-Unmodified-Since is older).
 */
export async function unregisterRunner(token: string, ip: Ip, precondition: (updatedAt: Date) => void = () => undefined): Promise<void> {
  const deleted = await db().$transaction(async (tx) => {
    const row = await lockRunnerByToken(tx, token);
    if (!row) return false;
    const { updatedAt } = await tx.runner.findUniqueOrThrow({ where: { id: row.id }, select: { updatedAt: true } });
    precondition(updatedAt);
    await recordRunnerAudit(tx, { actor: { kind: 'runner', runnerId: row.id }, ip, runnerId: row.id, action: 'delete', details: { via: 'token' } });
    await tx.runner.delete({ where: { id: row.id } });
    return true;
  });
  if (!deleted) throw forbidden();
}

/** DELETE /runners/managers: removes one manager; the last one gone means the runner never contacted. */
export async function deleteRunnerManager(token: string, systemId: string): Promise<void> {
  const outcome = await db().$transaction(async (tx) => {
    const row = await lockRunnerByToken(tx, token);
    if (!row) return 'forbidden' as const;
    const removed = await tx.runnerManager.deleteMany({ where: { runnerId: row.id, systemXid: systemId } });
    if (!removed.count) return 'missing' as const;
    if ((await tx.runnerManager.count({ where: { runnerId: row.id } })) === 0) {
      await tx.runner.update({ where: { id: row.id }, data: { contactedAt: null } });
    }
    return 'ok' as const;
  });
  if (outcome === 'forbidden') throw forbidden();
  if (outcome === 'missing') throw notFound('Runner manager not found');
}

/** POST /runners/reset_authentication_token: rotates the presented token (only once, even if raced). */
export async function resetTokenByToken(token: string, ip: Ip) {
  const result = await db().$transaction(async (tx) => {
    const row = await lockRunnerByToken(tx, token);
    if (!row) return null;
    const runner = await tx.runner.findUniqueOrThrow({ where: { id: row.id } });
    const rotated = await rotateRunnerToken(tx, runner);
    await recordRunnerAudit(tx, {
      actor: { kind: 'runner', runnerId: row.id },
      ip,
      runnerId: row.id,
      action: 'reset_authentication_token',
      details: { via: 'token' },
    });
    return { runnerId: runner.id, ...rotated };
  });
  if (!result) throw forbidden();
  return result;
}

/** POST /runners/:id/reset_authentication_token, by a user allowed to update the runner. */
export async function resetTokenById(actor: Actor, runnerId: number, ip: Ip) {
  const runner = isRowId(runnerId) ? await db().runner.findUnique({ where: { id: runnerId } }) : null;
  if (!runner) throw notFound('Runner');
  if (!(await canUpdateRunner(actor, runner))) throw forbidden('No access granted');
  const result = await db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM ci_runners WHERE id = ${runnerId} FOR UPDATE`;
    if (!locked.length) return null;
    const fresh = await tx.runner.findUniqueOrThrow({ where: { id: runnerId } });
    const rotated = await rotateRunnerToken(tx, fresh);
    await recordRunnerAudit(tx, { actor: userActor(actor), ip, runnerId, action: 'reset_authentication_token', details: { via: 'id' } });
    return rotated;
  });
  if (!result) throw notFound('Runner');
  return resetTokenResult(result.token, result.tokenExpiresAt);
}

// ------------------------------------------------------------------ registration-token resets

/** POST /runners/reset_registration_token (instance): admins, while registration tokens are allowed. */
export async function resetInstanceRegistrationToken(actor: Actor, ip: Ip) {
  if (!(await canManageRunnersOf(actor, { kind: 'instance' })) || !(await instanceAllowsRegistrationTokens())) throw forbidden();
  const token = newRegistrationToken();
  await currentSettings();
  await db().$transaction(async (tx) => {
    await tx.applicationSetting.update({ where: { id: 1 }, data: { runnersRegistrationTokenDigest: digest(token) } });
    await recordRegistrationTokenReset(tx, { actor: userActor(actor), ip, scope: { type: 'instance' } });
  });
  return { token };
}

/** POST /projects/:id/runners/reset_registration_token: Maintainer+, while the root namespace allows tokens. */
export async function resetProjectRegistrationToken(actor: Actor, projectRef: string, ip: Ip) {
  const project = await findProject(actor, projectRef);
  if (!(await canManageRunnersOf(actor, { kind: 'project', projectId: project.id })) || !(await namespaceAllowsRegistrationTokens(project.namespaceId))) {
    throw forbidden();
  }
  const token = newRegistrationToken();
  await db().$transaction(async (tx) => {
    await tx.project.update({ where: { id: project.id }, data: { runnersTokenDigest: digest(token) } });
    await recordRegistrationTokenReset(tx, { actor: userActor(actor), ip, scope: { type: 'project', id: project.id } });
  });
  return { token };
}

/** POST /groups/:id/runners/reset_registration_token: Owner, while the root namespace allows tokens. */
export async function resetGroupRegistrationToken(actor: Actor, groupRef: string, ip: Ip) {
  const group = await findGroup(actor, groupRef);
  if (!(await canManageRunnersOf(actor, { kind: 'group', groupId: group.id })) || !(await namespaceAllowsRegistrationTokens(group.id))) {
    throw forbidden();
  }
  const token = newRegistrationToken();
  await db().$transaction(async (tx) => {
    await tx.namespace.update({ where: { id: group.id }, data: { runnersTokenDigest: digest(token) } });
    await recordRegistrationTokenReset(tx, { actor: userActor(actor), ip, scope: { type: 'group', id: group.id } });
  });
  return { token };
}
