// Writes on users. Creating a user also creates the personal namespace its projects live in.
import { db, type Prisma } from '../db/client';
import type { User } from '../db/generated/client';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/password';
import { friendlyToken } from '../auth/secrets';
import { revokeAllSessions } from '../sessions/service';
import { conflict, validationError } from '../api/errors';
import type { CreateUserInput } from './schema';
import { fullPathTaken } from '../namespaces/queries';
import { userIdByLogin } from './queries';

export const USERNAME_RE = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+$/;

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
}

/** Model validation as GitLab words it: `{attribute: [messages]}`. Empty when valid. */
export async function validateNewUser(u: NewUser, tx: Prisma.TransactionClient = db()): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!u.username) add('username', "can't be blank");
  else if (!USERNAME_RE.test(u.username) || /\.(git|atom)$/.test(u.username) || u.username.length > 255) {
    add('username', 'can contain only letters, digits, \'_\', \'-\' and \'.\'. Cannot start with \'-\' or end in \'.\', \'.git\' or \'.atom\'.');
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
    await tx.user.update({ where: { id: userId }, data: { passwordDigest, failedAttempts: 0, lockedAt: null } });
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
  try {
    return await db().$transaction(async (tx) => {
      const errors = await validateNewUser(u, tx);
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
