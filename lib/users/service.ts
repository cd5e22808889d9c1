// Writes on users. Creating a user also creates the personal namespace its projects live in.
import { db, type Prisma } from '../db/client';
import type { User } from '../db/generated/client';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/password';
import { liftSignInLocks } from '../auth/lockout';
import { recordUserAccessAudit, userActor } from '../audit/service';
import type { Actor } from '../api/authenticate';
import { friendlyToken } from '../auth/secrets';
import { revokeAllSessions } from '../sessions/service';
import { conflict, validationError } from '../api/errors';
import type { CreateUserInput, UpdateUserInput } from './schema';
import { raw } from '../db/sql';
import { deleteGroupTrees, deleteProjectsIn } from '../namespaces/removal';
import { fullPathTaken } from '../namespaces/queries';
import { profileData } from './profile';
import { userIdByLogin } from './queries';

export const USERNAME_RE = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+$/;
const USERNAME_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password: string;
  admin?: boolean;
  createdById?: number | null;
  bio?: string;
  location?: string;
  organization?: string;
  jobTitle?: string;
  websiteUrl?: string;
  publicEmail?: string | null;
  canCreateGroup?: boolean;
  projectsLimit?: number;
  /** Further profile and admin attributes (profile.ts). */
  profile?: Prisma.UserUncheckedUpdateInput;
}

/** Model validation as GitLab words it: `{attribute: [messages]}`. Empty when valid. */
export async function validateNewUser(u: NewUser, tx: Prisma.TransactionClient = db()): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!u.username) add('username', "can't be blank");
  else if (!USERNAME_RE.test(u.username) || /\.(git|atom)$/.test(u.username) || u.username.length > 255) {
    add('username', USERNAME_MESSAGE);
  }
  if (!u.name) add('name', "can't be blank");
  if (!EMAIL_RE.test(u.email)) add('email', 'is invalid');
  if (u.password.length < MIN_PASSWORD_LENGTH) add('password', `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`);
  if (u.username && !errors.username) {
    if (await fullPathTaken(u.username, tx)) add('username', 'has already been taken');
  }
  if (!errors.email) {
    if ((await userIdByLogin('email', u.email, tx)) !== null) add('email', 'has already been taken');
  }
  return errors;
}

/** Inserts the user and its personal namespace; call inside a transaction. */
export async function insertUser(tx: Prisma.TransactionClient, u: NewUser) {
  const user = await tx.user.create({
    data: {
      username: u.username,
      name: u.name,
      email: u.email.toLowerCase(),
      publicEmail: u.publicEmail ?? null,
      passwordDigest: await hashPassword(u.password),
      admin: u.admin ?? false,
      createdById: u.createdById ?? null,
      bio: u.bio ?? '',
      location: u.location ?? '',
      organization: u.organization ?? '',
      jobTitle: u.jobTitle ?? '',
      websiteUrl: u.websiteUrl ?? '',
      canCreateGroup: u.canCreateGroup ?? true,
      projectsLimit: u.projectsLimit ?? 100000,
      ...(u.profile as Prisma.UserUncheckedCreateInput | undefined),
    },
  });
  const ns = await tx.namespace.create({
    data: { kind: 'user', name: u.name, path: u.username, fullPath: u.username, ownerId: user.id, visibility: 'public' },
  });
  await tx.namespace.update({ where: { id: ns.id }, data: { traversalIds: [ns.id] } });
  return user;
}

/**
 * A new password ends every dashboard session of the user, as GitLab's password change does, and lifts a
 * sign-in lock, as Devise's password reset unlocks the account.
 */
export async function setPassword(userId: number, password: string): Promise<void> {
  const passwordDigest = await hashPassword(password);
  await db().$transaction(async (tx) => {
    const user = await tx.user.update({ where: { id: userId }, data: { passwordDigest } });
    await liftSignInLocks(tx, user);
    await revokeAllSessions(userId, tx);
  });
}

const emailTaken = async (email: string, tx: Prisma.TransactionClient) => (await userIdByLogin('email', email, tx)) !== null;
const usernameTaken = async (username: string, tx: Prisma.TransactionClient) => (await userIdByLogin('username', username, tx)) !== null;

/**
 * POST /users. As GitLab: when the record does not validate, a taken email answers 409 first, then a
 * taken username, and only then the 400 validation errors. A unique-constraint race also ends as 409.
 */
export async function createUserByAdmin(input: CreateUserInput, createdById: number): Promise<User> {
  // reset_password / force_random_password: the user gets a password nobody knows (no mailer here).
  const password = input.password ?? friendlyToken(32);
  const u: NewUser = {
    // A JSON null for a required parameter is treated as blank, so the model validation words it.
    username: input.username ?? '',
    name: input.name ?? '',
    email: input.email ?? '',
    password,
    admin: input.admin ?? false,
    createdById,
    bio: input.bio ?? undefined,
    location: input.location ?? undefined,
    organization: input.organization ?? undefined,
    websiteUrl: input.website_url ?? undefined,
    publicEmail: input.public_email || null,
    canCreateGroup: input.can_create_group ?? undefined,
    projectsLimit: input.projects_limit ?? undefined,
  };
  const profile = profileData(input);
  u.profile = profile.data;
  try {
    return await db().$transaction(async (tx) => {
      const errors = { ...(await validateNewUser(u, tx)), ...profile.errors };
      if (Object.keys(errors).length) {
        if (u.email && (await emailTaken(u.email, tx))) throw conflict('Email has already been taken');
        if (u.username && (await usernameTaken(u.username, tx))) throw conflict('Username has already been taken');
        throw validationError(errors);
      }
      return insertUser(tx, u);
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') {
      const target = JSON.stringify((err as { meta?: unknown }).meta ?? '');
      throw conflict(target.includes('email') ? 'Email has already been taken' : 'Username has already been taken');
    }
    throw err;
  }
}

/**
 * Sets the state; returns false when it already was that state (GitLab answers that case differently).
 * Blocking also ends the user's dashboard sessions, so unblocking later does not revive them.
 */
export async function setUserState(userId: number, state: 'active' | 'blocked'): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId, state: { not: state } }, data: { state } });
    if (count > 0 && state === 'blocked') await revokeAllSessions(userId, tx);
    return count > 0;
  });
}

/**
 * POST /users/:id/unlock: lifts every sign-in lock of the user (for everyone, and for single addresses)
 * and, when one was on, records GitLab's user_access_unlocked in the same transaction. Returns whether a
 * lock was on.
 */
export async function unlockUserByAdmin(user: User, actor: Actor, ip: string | null): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const wasLocked = await liftSignInLocks(tx, user);
    if (wasLocked) await recordUserAccessAudit(tx, { actor: userActor(actor), ip, user, event: 'user_access_unlocked' });
    return wasLocked;
  });
}

/**
 * PUT /users/:id. As GitLab: a taken email (any case, another user) answers 409, then a taken username,
 * then the model validation's 400. A new username moves the personal namespace and its projects' paths; a
 * new password ends the user's dashboard sessions. Runway sends no mail, so a new email applies at once.
 */
export async function updateUserByAdmin(user: User, input: UpdateUserInput): Promise<User> {
  const username = input.username ?? user.username;
  const email = input.email ?? user.email;
  try {
    return await db().$transaction(async (tx) => {
      if (input.email != null && (await otherUserHas('email', input.email, user.id, tx))) throw conflict('Email has already been taken');
      if (input.username != null && (await otherUserHas('username', input.username, user.id, tx))) throw conflict('Username has already been taken');
      const profile = profileData(input);
      const errors = {
        ...(await validateUserChange(user, { username, email, name: input.name ?? user.name, password: input.password ?? null }, tx)),
        ...profile.errors,
      };
      if (Object.keys(errors).length) throw validationError(errors);
      const updated = await tx.user.update({
        where: { id: user.id },
        data: {
          ...profile.data,
          username,
          name: input.name ?? undefined,
          email: email.toLowerCase(),
          passwordDigest: input.password ? await hashPassword(input.password) : undefined,
        },
      });
      if (input.password) await revokeAllSessions(user.id, tx);
      await syncPersonalNamespace(tx, user, updated);
      return updated;
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') {
      const target = JSON.stringify((err as { meta?: unknown }).meta ?? '');
      throw conflict(target.includes('email') ? 'Email has already been taken' : 'Username has already been taken');
    }
    throw err;
  }
}

async function otherUserHas(field: 'email' | 'username', value: string, userId: number, tx: Prisma.TransactionClient): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM users WHERE lower(${field === 'email' ? raw('email') : raw('username')}) = lower(${value}) AND id <> ${userId} LIMIT 1`;
  return rows.length > 0;
}

/** The model validation of a changed user, worded as GitLab does; only changed attributes are checked. */
async function validateUserChange(
  before: User,
  after: { username: string; email: string; name: string; password: string | null },
  tx: Prisma.TransactionClient,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (after.username !== before.username) {
    if (!after.username) add('username', "can't be blank");
    else if (!USERNAME_RE.test(after.username) || /\.(git|atom)$/.test(after.username) || after.username.length > 255) {
      add('username', USERNAME_MESSAGE);
    } else if (after.username.toLowerCase() !== before.username.toLowerCase() && (await fullPathTaken(after.username, tx))) {
      add('username', 'has already been taken');
    }
  }
  if (!after.name) add('name', "can't be blank");
  if (after.email !== before.email && !EMAIL_RE.test(after.email)) add('email', 'is invalid');
  if (after.password !== null && after.password.length < MIN_PASSWORD_LENGTH) add('password', `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`);
  return errors;
}

/** The personal namespace follows the user's username (path) and name, and its projects' full paths with it. */
async function syncPersonalNamespace(tx: Prisma.TransactionClient, before: User, after: User): Promise<void> {
  if (before.username === after.username && before.name === after.name) return;
  const ns = await tx.namespace.findUnique({ where: { ownerId: after.id } });
  if (!ns) return;
  await tx.namespace.update({ where: { id: ns.id }, data: { name: after.name, path: after.username, fullPath: after.username } });
  if (before.username !== after.username) {
    await tx.$executeRaw`
      UPDATE projects SET full_path = ${after.username} || '/' || path WHERE namespace_id = ${ns.id}`;
  }
}

/**
 * Groups the user alone owns (GitLab's solo_owned_groups): a direct Owner membership with no other active
 * owner in the group (and, for a subgroup, its ancestors).
 */
async function soloOwnedGroupIds(tx: Prisma.TransactionClient, userId: number): Promise<number[]> {
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT ns.id FROM group_members gm JOIN namespaces ns ON ns.id = gm.group_id
     WHERE gm.user_id = ${userId} AND gm.access_level = 50
       AND NOT EXISTS (
         SELECT 1 FROM group_members o JOIN users u ON u.id = o.user_id
          WHERE o.user_id <> ${userId} AND o.access_level = 50 AND u.state = 'active'
            AND (o.expires_at IS NULL OR o.expires_at > CURRENT_DATE)
            AND o.group_id = ANY(CASE WHEN ns.parent_id IS NULL THEN ARRAY[ns.id] ELSE ns.traversal_ids END))
     ORDER BY ns.id`;
  return rows.map((r) => r.id);
}

/**
 * DELETE /users/:id, in one transaction (GitLab does it in a background worker). Refused with 409 while the
 * user alone owns a group, unless `hardDelete`, which also removes those groups. Always removed with the
 * user: their personal namespace and its projects, memberships, tokens and sessions. Runway has no Ghost
 * User: records the user authored (merge requests, jobs, pipelines, runners they created) stay with no
 * author, except with `hardDelete`, which deletes the merge requests they authored.
 * Returns false when the user no longer exists (a concurrent delete won).
 */
export async function deleteUserByAdmin(userId: number, hardDelete: boolean, checkUnmodified: (updatedAt: Date) => void): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ id: number; updated_at: Date }[]>`SELECT id, updated_at FROM users WHERE id = ${userId} FOR UPDATE`;
    if (!user) return false;
    const soloOwned = await soloOwnedGroupIds(tx, userId);
    if (soloOwned.length && !hardDelete) throw conflict('User cannot be removed while is the sole-owner of a group');
    checkUnmodified(user.updated_at);
    await revokeAllSessions(userId, tx);
    await deleteGroupTrees(tx, soloOwned);
    const personal = await tx.namespace.findUnique({ where: { ownerId: userId }, select: { id: true } });
    if (personal) await deleteProjectsIn(tx, [personal.id]);
    if (hardDelete) await tx.mergeRequest.deleteMany({ where: { authorId: userId } });
    // Cascades: personal namespace, memberships, tokens, sessions, merge request assignments.
    await tx.user.delete({ where: { id: userId } });
    return true;
  });
}
