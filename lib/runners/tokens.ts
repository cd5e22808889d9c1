// Runner authentication tokens and registration tokens: generation (GitLab 17+/18 formats), expiry, and
// lookup by digest. Only SHA-256 digests are stored; a token is shown once, at creation or reset.
import { db, type Prisma } from '../db/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import type { Runner, RunnerRegistrationType, RunnerType } from '../db/generated/client';
import { digest, digestsEqual, friendlyToken } from '../auth/secrets';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/** The partition number GitLab encodes in runner tokens since 17.x (`t1_`, `t2_`, `t3_`). */
const TYPE_NUMBER: Record<RunnerType, number> = { instance_type: 1, group_type: 2, project_type: 3 };

/** Prefix of tokens of runners created by a user (`POST /user/runners`): gitlab-runner keys its workflow on it. */
export const CREATED_RUNNER_TOKEN_PREFIX = 'glrt-';
/** Registration tokens: "GR" + the 2022-02-25 rotation date in hex, as GitLab issues them. */
export const REGISTRATION_TOKEN_PREFIX = 'GR1348941';

/** `glrt-t<type>_…` (28 chars) for user-created runners, `t<type>_…` (23 chars) for registered ones. */
export function newRunnerToken(type: RunnerType, registrationType: RunnerRegistrationType): string {
  const partition = `t${TYPE_NUMBER[type]}_`;
  const prefix = registrationType === 'authenticated_user' ? `${CREATED_RUNNER_TOKEN_PREFIX}${partition}` : partition;
  return `${prefix}${friendlyToken(20)}`;
}

export const newRegistrationToken = () => `${REGISTRATION_TOKEN_PREFIX}${friendlyToken(20)}`;

/** An interval counts only when positive: null and 0 both mean "tokens never expire" (GitLab's default). */
const positive = (n: number | null | undefined): n is number => typeof n === 'number' && n > 0;
const smallest = (values: Array<number | null | undefined>): number | null => {
  const set = values.filter(positive);
  return set.length ? Math.min(...set) : null;
};

export interface TokenOwner {
  runnerType: RunnerType;
  groupId: number | null;
  /** Every project the runner is assigned to (project runners). */
  projectIds: number[];
}

/**
 * The effective expiration interval (seconds) of a runner's token, or null: instance runners follow the
 * instance setting; group runners the smallest of the instance's group interval and the intervals of the
 * group and its ancestors; project runners the smallest over all their projects (project, its namespaces,
 * the instance's project interval).
 */
export async function tokenExpirationInterval(owner: TokenOwner, client: Client = db()): Promise<number | null> {
  const settings = await client.applicationSetting.findUnique({ where: { id: 1 } });
  if (owner.runnerType === 'instance_type') return smallest([settings?.runnerTokenExpirationInterval]);
  if (owner.runnerType === 'group_type') {
    if (owner.groupId === null) return smallest([settings?.groupRunnerTokenExpirationInterval]);
    const rows = await client.$queryRaw<{ interval: number | null }[]>`
      SELECT MIN(a.runner_token_expiration_interval) FILTER (WHERE a.runner_token_expiration_interval > 0)::int AS interval
        FROM namespaces g JOIN namespaces a ON a.id = ANY(g.traversal_ids)
       WHERE g.id = ${owner.groupId}`;
    return smallest([settings?.groupRunnerTokenExpirationInterval, rows[0]?.interval]);
  }
  if (!owner.projectIds.length) return smallest([settings?.projectRunnerTokenExpirationInterval]);
  const rows = await client.$queryRaw<{ interval: number | null }[]>`
    SELECT MIN(LEAST(
             NULLIF(p.runner_token_expiration_interval, 0),
             (SELECT MIN(a.runner_token_expiration_interval) FILTER (WHERE a.runner_token_expiration_interval > 0)
                FROM namespaces ns JOIN namespaces a ON a.id = ANY(ns.traversal_ids)
               WHERE ns.id = p.namespace_id)))::int AS interval
      FROM projects p WHERE p.id = ANY(${owner.projectIds}::int[])`;
  return smallest([settings?.projectRunnerTokenExpirationInterval, rows[0]?.interval]);
}

/** `token_expires_at` for a token generated now, or null when the owner sets no interval. */
export async function computeTokenExpiresAt(owner: TokenOwner, client: Client = db(), now = new Date()): Promise<Date | null> {
  const seconds = await tokenExpirationInterval(owner, client);
  return seconds === null ? null : new Date(now.getTime() + seconds * 1000);
}

/** The owner of an existing runner, for recomputing its expiry at reset. */
export async function tokenOwnerOf(runner: Pick<Runner, 'id' | 'runnerType' | 'groupId'>, client: Client = db()): Promise<TokenOwner> {
  const links =
    runner.runnerType === 'project_type' ? await client.runnerProject.findMany({ where: { runnerId: runner.id }, select: { projectId: true } }) : [];
  return { runnerType: runner.runnerType, groupId: runner.groupId, projectIds: links.map((l) => l.projectId) };
}

/** SQL condition: the token of `ci_runners` row `r` has not expired. */
export const UNEXPIRED_TOKEN_SQL = '(token_expires_at IS NULL OR token_expires_at > now())';

/**
 * The runner holding this authentication token, or null when none does or the token has expired.
 * The row is found by its digest (indexed); the digests are then compared in constant time.
 */
export async function findRunnerByToken(token: string, client: Client = db()): Promise<Runner | null> {
  if (!token) return null;
  const wanted = digest(token);
  const runner = await client.runner.findFirst({
    where: { tokenDigest: wanted, OR: [{ tokenExpiresAt: null }, { tokenExpiresAt: { gt: new Date() } }] },
  });
  return runner && digestsEqual(runner.tokenDigest, wanted) ? runner : null;
}

/** A runner authenticated for a poll (verify, jobs/request), with what deciding on a heartbeat needs. */
export interface RunnerContactState {
  id: number;
  tokenExpiresAt: Date | null;
  updatedAt: Date;
  /** contacted_at is unset or older than the heartbeat interval (a minute). */
  contactDue: boolean;
  creationState: string;
  /** The manager (runner, system_xid), when it exists. */
  manager: {
    contactDue: boolean;
    creationState: string;
    version: string | null;
    revision: string | null;
    platform: string | null;
    architecture: string | null;
    executorType: string | null;
    ipAddress: string | null;
  } | null;
}

/**
 * findRunnerByToken for the runner polls: the runner and its manager `systemXid` in one indexed
 * statement, with the heartbeat's "due" checks evaluated by the database clock (as the guarded writes
 * in heartbeat.ts are), so a poll between heartbeats costs this one statement.
 */
export async function findRunnerForContact(token: string, systemXid: string): Promise<RunnerContactState | null> {
  if (!token) return null;
  const wanted = digest(token);
  const rows = await queryRows<
    Omit<RunnerContactState, 'manager'> & { tokenDigest: string; managerFound: boolean; m: NonNullable<RunnerContactState['manager']> }
  >(sql`
    SELECT r.id, r.token_digest AS "tokenDigest", r.token_expires_at AS "tokenExpiresAt", r.updated_at AS "updatedAt",
           (r.contacted_at IS NULL OR r.contacted_at < now() - interval '1 minute') AS "contactDue",
           r.creation_state::text AS "creationState",
           m.id IS NOT NULL AS "managerFound",
           json_build_object('contactDue', (m.contacted_at IS NULL OR m.contacted_at < now() - interval '1 minute'),
                             'creationState', m.creation_state::text, 'version', m.version, 'revision', m.revision,
                             'platform', m.platform, 'architecture', m.architecture,
                             'executorType', m.executor_type::text, 'ipAddress', m.ip_address::text) AS m
      FROM ci_runners r
      LEFT JOIN ci_runner_machines m ON m.runner_id = r.id AND m.system_xid = ${systemXid}
     WHERE r.token_digest = ${wanted} AND (r.token_expires_at IS NULL OR r.token_expires_at > now())`);
  const row = rows[0];
  if (!row || !digestsEqual(row.tokenDigest, wanted)) return null;
  return {
    id: row.id,
    tokenExpiresAt: row.tokenExpiresAt,
    updatedAt: row.updatedAt,
    contactDue: row.contactDue,
    creationState: row.creationState,
    manager: row.managerFound ? row.m : null,
  };
}

/**
 * Like findRunnerByToken, inside a transaction, with the row locked (SELECT … FOR UPDATE). A concurrent
 * reset that changed the token first makes the condition fail after the lock is granted, so the same
 * old token can never be rotated twice.
 */
export async function lockRunnerByToken(
  tx: Prisma.TransactionClient,
  token: string,
): Promise<{ id: number; runner_type: RunnerType; group_id: number | null } | null> {
  if (!token) return null;
  const wanted = digest(token);
  const rows = await tx.$queryRaw<{ id: number; runner_type: RunnerType; group_id: number | null; token_digest: string }[]>`
    SELECT id, runner_type, group_id, token_digest FROM ci_runners
     WHERE token_digest = ${wanted} AND (token_expires_at IS NULL OR token_expires_at > now())
     FOR UPDATE`;
  const row = rows[0];
  return row && digestsEqual(row.token_digest, wanted) ? { id: row.id, runner_type: row.runner_type, group_id: row.group_id } : null;
}

/** Generates and stores a fresh token for a (locked) runner; returns the plaintext once. */
export async function rotateRunnerToken(
  tx: Prisma.TransactionClient,
  runner: { id: number; runnerType: RunnerType; groupId: number | null; registrationType: RunnerRegistrationType },
): Promise<{ token: string; tokenExpiresAt: Date | null }> {
  const token = newRunnerToken(runner.runnerType, runner.registrationType);
  const tokenExpiresAt = await computeTokenExpiresAt(await tokenOwnerOf(runner, tx), tx);
  await tx.runner.update({ where: { id: runner.id }, data: { tokenDigest: digest(token), tokenExpiresAt } });
  return { token, tokenExpiresAt };
}

/** Constant-time check of a presented registration token against a stored digest. */
export function registrationTokenMatches(stored: string | null | undefined, presented: string): boolean {
  return !!stored && !!presented && digestsEqual(stored, digest(presented));
}
