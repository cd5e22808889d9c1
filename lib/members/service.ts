// Adding, changing and removing memberships (POST .../members, PUT/DELETE .../members/:user_id). A change
// or removal runs in one transaction that first locks the group tree's root row, so owner changes anywhere in one tree happen one at a time: the
// last-owner check and the write see the same owners, and two owners demoting each other cannot both win.
// A deferred trigger (migration group_owner_invariant) keeps the rule in the database as well.
import type { Actor } from '../api/authenticate';
import { forbidden, recordNotFound, validationError, notFound, conflict } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { sql } from '../db/sql';
import { checkUnmodifiedSince } from '../api/preconditions';
import { AccessLevel, groupAccessLevel, projectAccessLevel } from '../namespaces/access';
import { canAdminMembersOf, canRemoveMember, canUpdateMember, type MemberTarget, type Viewer, canGrantLevel } from '../namespaces/policy';
import { inheritedMembership, LEVEL_NAMES, sourceViewer, type MemberSource, isUniqueViolation } from '../namespaces/service';
import { findUserByLogin } from '../users/queries';

type Tx = Prisma.TransactionClient;

interface LockedMember {
  id: number;
  access_level: number;
  expires_at: Date | null;
  updated_at: Date;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Serialises membership writes of one group tree (or one project) on a row every writer locks first. */
async function lockSource(tx: Tx, source: MemberSource): Promise<void> {
  if (source.kind === 'group') {
    await tx.$queryRaw`SELECT id FROM namespaces WHERE id = ${source.group.traversalIds[0] ?? source.group.id} FOR UPDATE`;
  } else {
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${source.project.id} FOR UPDATE`;
  }
}

async function lockedMember(tx: Tx, source: MemberSource, userId: number): Promise<LockedMember | null> {
  const rows =
    source.kind === 'group'
      ? await tx.$queryRaw<LockedMember[]>`
          SELECT id, access_level, expires_at, updated_at FROM group_members
           WHERE group_id = ${source.group.id} AND user_id = ${userId} FOR UPDATE`
      : await tx.$queryRaw<LockedMember[]>`
          SELECT id, access_level, expires_at, updated_at FROM project_members
           WHERE project_id = ${source.project.id} AND user_id = ${userId} FOR UPDATE`;
  return rows[0] ?? null;
}

/** The actor's level read inside the transaction, after the lock (a demotion may just have committed). */
async function viewerInTx(tx: Tx, actor: Actor, source: MemberSource): Promise<Viewer> {
  const level =
    source.kind === 'group' ? await groupAccessLevel(actor.user.id, source.group.id, tx) : await projectAccessLevel(actor.user.id, source.project.id, tx);
  return { signedIn: true, admin: actor.user.admin, level };
}

/**
 * GitLab's Group#member_last_owner? / member_last_blocked_owner?: a top-level group counts its direct
 * owners, a subgroup also those of its ancestors; blocked owners count only when no active one is left.
 */
async function isLastOwner(tx: Tx, source: MemberSource, userId: number, member: LockedMember): Promise<boolean> {
  if (source.kind !== 'group' || member.access_level !== AccessLevel.OWNER) return false;
  const g = source.group;
  const scope = g.parentId === null ? [g.id] : g.traversalIds;
  const [row] = await tx.$queryRaw<{ active: number; blocked_direct: number; target_state: string }[]>`
    SELECT COUNT(*) FILTER (WHERE u.state = 'active')::int AS active,
           COUNT(*) FILTER (WHERE u.state = 'blocked' AND gm.group_id = ${g.id})::int AS blocked_direct,
           (SELECT state::text FROM users WHERE id = ${userId}) AS target_state
      FROM group_members gm JOIN users u ON u.id = gm.user_id
     WHERE gm.group_id = ANY(${scope}::int[]) AND gm.access_level = ${AccessLevel.OWNER}
       AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)`;
  if (row.target_state === 'active') return row.active === 1;
  return row.active === 0 && row.blocked_direct === 1;
}

async function memberTarget(tx: Tx, actor: Actor, source: MemberSource, userId: number, member: LockedMember): Promise<MemberTarget> {
  return {
    level: member.access_level,
    self: actor.user.id === userId,
    lastOwner: await isLastOwner(tx, source, userId, member),
    namespaceHolder: source.kind === 'project' && source.project.namespace.ownerId === userId,
  };
}

export interface MemberChange {
  accessLevel: number;
  /** Absent: unchanged; null: no expiry. */
  expiresAt?: string | null;
}

/** PUT .../members/:user_id. Returns the membership id. */
export async function updateMember(actor: Actor, source: MemberSource, userId: number, change: MemberChange): Promise<number> {
  // authorize_admin_source! comes before the member lookup, as in GitLab.
  if (!canAdminMembersOf(source.kind, await sourceViewer(actor, source))) throw forbidden();
  return db().$transaction(async (tx) => {
    await lockSource(tx, source);
    const member = await lockedMember(tx, source, userId);
    if (!member) throw recordNotFound();
    const viewer = await viewerInTx(tx, actor, source);
    if (!canUpdateMember(source.kind, viewer, await memberTarget(tx, actor, source, userId, member), change.accessLevel)) throw forbidden();

    const current = member.expires_at ? member.expires_at.toISOString().slice(0, 10) : null;
    const expiresAt = change.expiresAt === undefined ? current : change.expiresAt;
    if (change.accessLevel === member.access_level && expiresAt === current) return member.id;

    const errors: Record<string, string[]> = {};
    if (expiresAt !== current && expiresAt !== null && expiresAt < today()) errors.expires_at = ['cannot be a date in the past'];
    const inherited = await inheritedMembership(tx, source, userId);
    if (inherited && change.accessLevel < inherited.level) {
      errors.access_level = [`should be greater than or equal to ${LEVEL_NAMES[inherited.level]} inherited membership from group ${inherited.groupName}`];
    }
    if (Object.keys(errors).length) throw validationError(errors);
    const data = { accessLevel: change.accessLevel, expiresAt: expiresAt ? new Date(`${expiresAt}T00:00:00Z`) : null };
    if (source.kind === 'group') await tx.groupMember.update({ where: { id: member.id }, data });
    else await tx.projectMember.update({ where: { id: member.id }, data });
    return member.id;
  });
}

export interface RemoveOptions {
  /** Keep the user's direct memberships in the group's subgroups and projects. */
  skipSubresources: boolean;
  /** Also unassign the user from the merge requests of the group's or project's projects. */
  unassignIssuables: boolean;
}

/** DELETE .../members/:user_id: the membership and, unless skipped, the user's memberships below it. */
export async function removeMember(actor: Actor, source: MemberSource, userId: number, opts: RemoveOptions, req: Request): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockSource(tx, source);
    const member = await lockedMember(tx, source, userId);
    if (!member) throw recordNotFound();
    checkUnmodifiedSince(req, member.updated_at);
    const viewer = await viewerInTx(tx, actor, source);
    if (!canRemoveMember(source.kind, viewer, await memberTarget(tx, actor, source, userId, member))) throw forbidden();

    if (source.kind === 'group') {
      await tx.groupMember.delete({ where: { id: member.id } });
      if (!opts.skipSubresources) {
        await tx.$executeRaw`
          DELETE FROM group_members gm USING namespaces ns
           WHERE gm.group_id = ns.id AND ${source.group.id} = ANY(ns.traversal_ids) AND ns.id <> ${source.group.id} AND gm.user_id = ${userId}`;
        await tx.$executeRaw`
          DELETE FROM project_members pm USING projects p, namespaces ns
           WHERE pm.project_id = p.id AND p.namespace_id = ns.id AND ${source.group.id} = ANY(ns.traversal_ids) AND pm.user_id = ${userId}`;
      }
    } else {
      await tx.projectMember.delete({ where: { id: member.id } });
    }
    if (opts.unassignIssuables) await unassignMergeRequests(tx, source, userId);
  });
}

async function unassignMergeRequests(tx: Tx, source: MemberSource, userId: number): Promise<void> {
  const projects =
    source.kind === 'group'
      ? sql`SELECT p.id FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id WHERE ${source.group.id} = ANY(ns.traversal_ids)`
      : sql`SELECT ${source.project.id}::int`;
  await tx.$executeRaw`
    DELETE FROM merge_request_assignees a USING merge_requests mr
     WHERE a.merge_request_id = mr.id AND a.user_id = ${userId} AND mr.target_project_id IN (${projects})`;
}

// ------------------------------------------------------------------ POST .../members

export interface NewMember {
  userId?: number | string;
  username?: string;
  accessLevel: number;
  expiresAt?: string | null;
}

/** POST .../members: returns the new membership's id. */
export async function addMember(actor: Actor, source: MemberSource, input: NewMember): Promise<number> {
  const viewer = await sourceViewer(actor, source);
  if (!canAdminMembersOf(source.kind, viewer)) throw forbidden();
  const userIdRaw = input.userId !== undefined ? String(input.userId).trim() : undefined;
  const target =
    userIdRaw !== undefined
      ? /^\d+$/.test(userIdRaw) && Number(userIdRaw) <= 2147483647
        ? await db().user.findUnique({ where: { id: Number(userIdRaw) } })
        : null
      : await findUserByLogin('username', input.username ?? '');
  if (!target) throw notFound('User');
  if (!canGrantLevel(viewer, input.accessLevel)) throw forbidden();
  try {
    return await db().$transaction(async (tx) => {
      const existing =
        source.kind === 'group'
          ? await tx.groupMember.findUnique({ where: { groupId_userId: { groupId: source.group.id, userId: target.id } } })
          : await tx.projectMember.findUnique({ where: { projectId_userId: { projectId: source.project.id, userId: target.id } } });
      if (existing) throw conflict('Member already exists');
      const errors: Record<string, string[]> = {};
      if (input.expiresAt && input.expiresAt < new Date().toISOString().slice(0, 10)) errors.expires_at = ['cannot be a date in the past'];
      const inherited = await inheritedMembership(tx, source, target.id);
      if (inherited && input.accessLevel < inherited.level) {
        errors.access_level = [`should be greater than or equal to ${LEVEL_NAMES[inherited.level]} inherited membership from group ${inherited.groupName}`];
      }
      if (Object.keys(errors).length) throw validationError(errors);
      const data = {
        userId: target.id,
        accessLevel: input.accessLevel,
        expiresAt: input.expiresAt ? new Date(`${input.expiresAt}T00:00:00Z`) : null,
        createdById: actor.user.id,
      };
      const row =
        source.kind === 'group'
          ? await tx.groupMember.create({ data: { ...data, groupId: source.group.id } })
          : await tx.projectMember.create({ data: { ...data, projectId: source.project.id } });
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Member already exists');
    throw err;
  }
}
