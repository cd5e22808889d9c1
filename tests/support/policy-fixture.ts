// The fixture the policy-table test walks: one user per access path and role, each reaching its target
// project, group and runner only through that path, plus an admin, a non-member, blocked members and the
// objects the probes point at. Built once through the API (root's token), with the few states the API
// refuses to make (an expiry in the past, a subgroup lock lifted under a locked parent) written in the database.
import { ACCESS_PATHS, OWNER, ROLE_LEVELS, type AccessPath, type Level } from '@/lib/openapi/permission-table';
import { rootToken, uniq } from './api';
import { inspect } from './inspect';
import { buildSampleRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';
import { fetchApi } from './policy-http';

export interface Targets {
  projectId: number;
  groupId: number;
  runnerId: number;
  /** The project's own MR (a project imported from the fixture repository); otherwise the main one's. */
  mrIid?: number;
}

export interface FixtureUser {
  id: number;
  username: string;
  api: string;
  readApi: string;
}

export interface PolicyFixture {
  repo: FixtureRepo;
  /** The main project T (in G/S) with a repository, an MR and a runner. */
  main: Targets;
  mrIid: number;
  sha: string;
  /** Targets per access path. */
  targets: Record<string, Targets>;
  /** users[path][level] */
  users: Record<string, Record<number, FixtureUser>>;
  blocked: Record<number, FixtureUser>;
  admin: FixtureUser & { sudo: string };
  nonmember: FixtureUser & { readUser: string };
  /** A Guest member of every target, the subject of member probes. */
  anchor: FixtureUser;
  /** Re-added before each DELETE-member probe that consumed it. */
  victim: FixtureUser;
  victimOwner: FixtureUser;
  /** A public group shared into every target (share probes answer 409 past authorization). */
  pub: { id: number };
  /** Groups whose links the unshare probes remove (restored before each). */
  unshareGroup: { id: number };
  ownerLinkGroup: { id: number };
  /** A taken subgroup path under each target group (create probes answer 400 past authorization). */
  takenPath: string;
  /** The path of an existing top-level group (POST /groups answers 400 past authorization). */
  topGroupPath: string;
  inS: number;
  groupIds: Record<string, number>;
  invited: Record<string, number>;
}

const root = () => rootToken();

async function ok(method: string, path: string, json: unknown, expected: number | number[]): Promise<any> {
  const res = await fetchApi(method, path, { token: root(), json });
  const want = Array.isArray(expected) ? expected : [expected];
  if (!want.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

export const group = (name: string, extra: Record<string, unknown> = {}) =>
  ok('POST', '/groups', { name: uniq(name), path: uniq(name), visibility: 'private', ...extra }, 201) as Promise<{
    id: number;
    full_path: string;
    path: string;
  }>;
export const project = (name: string, namespaceId: number) =>
  ok('POST', '/projects', { name: uniq(name), path: uniq(name), visibility: 'private', namespace_id: namespaceId }, 201) as Promise<{ id: number }>;
export const addMember = (kind: 'projects' | 'groups', id: number, userId: number, level: number, expiresAt?: string) =>
  ok('POST', `/${kind}/${id}/members`, { user_id: userId, access_level: level, ...(expiresAt ? { expires_at: expiresAt } : {}) }, [201, 409]);
export const shareProject = (projectId: number, groupId: number, level: number, expiresAt?: string) =>
  ok('POST', `/projects/${projectId}/share`, { group_id: groupId, group_access: level, ...(expiresAt ? { expires_at: expiresAt } : {}) }, [201, 409]);
export const shareGroup = (groupId: number, withId: number, level: number, expiresAt?: string) =>
  ok('POST', `/groups/${groupId}/share`, { group_id: withId, group_access: level, ...(expiresAt ? { expires_at: expiresAt } : {}) }, [201, 409]);
export const projectRunner = async (projectId: number) =>
  (await ok('POST', '/user/runners', { runner_type: 'project_type', project_id: projectId, description: uniq('policy') }, 201)).id as number;

export async function user(opts: { admin?: boolean } = {}): Promise<FixtureUser> {
  const username = uniq('pt').replace(/-/g, '_');
  const u = await ok(
    'POST',
    '/users',
    { username, email: `${username}@example.com`, name: username, password: 'runway-test-password-1', admin: opts.admin ?? false, skip_confirmation: true },
    201,
  );
  return { id: u.id, username, api: await token(u.id, ['api']), readApi: await token(u.id, ['read_api']) };
}

export async function token(userId: number, scopes: string[]): Promise<string> {
  return (await ok('POST', `/users/${userId}/personal_access_tokens`, { name: uniq('pt'), scopes }, 201)).token;
}

const future = () => new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
const PAST = '2020-01-01';

/** Runs `fn` over `items`, `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export async function buildPolicyFixture(): Promise<PolicyFixture> {
  const repo = buildSampleRepo({ extraBranches: ['policy-mr', 'policy-del'] });
  const [G, D, L, A, Xp, Xg, Xe, Xl, Xa, Xk, Xunshare, Xowner] = await pool(['g', 'd', 'l', 'a', 'xp', 'xg', 'xe', 'xl', 'xa', 'xk', 'xu', 'xo'], 4, (n) =>
    group(`pt-${n}`),
  );
  const pub = await group('pt-pub', { visibility: 'public' });
  const S = await group('pt-s', { parent_id: G.id });
  const B = await group('pt-b', { parent_id: A.id });
  const K = await group('pt-k', { parent_id: A.id });
  // TB holds the repository too: its path gives a level, so the repository and MR probes reach it.
  const [T, TB] = await Promise.all([importedProject(repo.dir, { namespaceId: S.id }), importedProject(repo.dir, { namespaceId: B.id })]);
  const [TL, TK] = await Promise.all([project('pt-tl', L.id), project('pt-tk', K.id)]);
  const [RT, RL, RB, RK] = await Promise.all([projectRunner(T.id), projectRunner(TL.id), projectRunner(TB.id), projectRunner(TK.id)]);

  const main = { projectId: T.id, groupId: S.id, runnerId: RT };
  const targets: Record<string, Targets> = {
    direct: { projectId: T.id, groupId: D.id, runnerId: RT },
    inherited: main,
    'project-share': main,
    'group-share': main,
    'locked-share': { projectId: TL.id, groupId: L.id, runnerId: RL },
    'lock-lifted-by-parent-owner': { projectId: TB.id, groupId: B.id, runnerId: RB },
    'ancestor-locked-share': { projectId: TK.id, groupId: K.id, runnerId: RK },
    'expired-membership': { projectId: T.id, groupId: D.id, runnerId: RT },
    'expired-share': main,
    blocked: { projectId: T.id, groupId: D.id, runnerId: RT },
  };

  const pathNames = ACCESS_PATHS.map((p: AccessPath) => p.name);
  const combos = pathNames.flatMap((p) => ROLE_LEVELS.map((level) => ({ p, level })));
  const made = await pool(combos, 4, () => user());
  const users: Record<string, Record<number, FixtureUser>> = {};
  combos.forEach(({ p, level }, i) => ((users[p] ??= {})[level] = made[i]));
  const blockedUsers = await pool(ROLE_LEVELS, 4, () => user());
  const blocked: Record<number, FixtureUser> = {};
  ROLE_LEVELS.forEach((l, i) => (blocked[l] = blockedUsers[i]));
  const [adminUser, nonmemberUser, anchor, victim, victimOwner] = await Promise.all([user({ admin: true }), user(), user(), user(), user()]);
  const admin = { ...adminUser, sudo: await token(adminUser.id, ['api', 'sudo']) };
  const nonmember = { ...nonmemberUser, readUser: await token(nonmemberUser.id, ['read_user']) };

  // Shares first: a lock refuses new ones.
  await shareProject(T.id, Xp.id, OWNER);
  await shareGroup(S.id, Xg.id, OWNER);
  await shareProject(T.id, Xe.id, OWNER, future());
  await shareGroup(S.id, Xe.id, OWNER, future());
  await shareGroup(D.id, Xe.id, OWNER, future());
  await shareProject(TL.id, Xl.id, OWNER);
  await shareProject(TB.id, Xa.id, OWNER);
  await shareProject(TK.id, Xk.id, OWNER);
  for (const t of [T.id, TL.id, TB.id, TK.id]) await shareProject(t, pub.id, 30);
  for (const g of [S.id, D.id, L.id, B.id, K.id]) await shareGroup(g, pub.id, 30);

  const memberships: Array<() => Promise<unknown>> = [];
  for (const level of ROLE_LEVELS) {
    const u = (p: string) => users[p][level].id;
    memberships.push(
      () => addMember('projects', T.id, u('direct'), level),
      () => addMember('groups', D.id, u('direct'), level),
      () => addMember('groups', G.id, u('inherited'), level),
      () => addMember('groups', Xp.id, u('project-share'), level),
      () => addMember('groups', Xg.id, u('group-share'), level),
      () => addMember('groups', Xl.id, u('locked-share'), level),
      () => addMember('groups', Xa.id, u('lock-lifted-by-parent-owner'), level),
      () => addMember('groups', Xk.id, u('ancestor-locked-share'), level),
      () => addMember('projects', T.id, u('expired-membership'), level, future()),
      () => addMember('groups', D.id, u('expired-membership'), level, future()),
      () => addMember('groups', Xe.id, u('expired-share'), level),
      () => addMember('projects', T.id, blocked[level].id, level),
      () => addMember('groups', D.id, blocked[level].id, level),
    );
  }
  for (const t of [T.id, TL.id, TB.id, TK.id])
    memberships.push(
      () => addMember('projects', t, anchor.id, 10),
      () => addMember('projects', t, victim.id, 10),
    );
  for (const g of [S.id, D.id, L.id, B.id, K.id])
    memberships.push(
      () => addMember('groups', g, anchor.id, 10),
      () => addMember('groups', g, victim.id, 10),
    );
  for (const t of [T.id, TL.id, TB.id, TK.id]) memberships.push(() => addMember('projects', t, victimOwner.id, OWNER));
  await pool(memberships, 4, (f) => f());

  // A taken child path under each target group, and the unshare probes' links.
  const takenPath = uniq('taken');
  for (const g of [S.id, D.id, L.id, B.id, K.id]) await ok('POST', '/groups', { name: takenPath, path: takenPath, parent_id: g, visibility: 'private' }, 201);
  for (const t of [T.id, TL.id, TB.id, TK.id]) await shareProject(t, Xunshare.id, 30);
  for (const t of [T.id, TL.id, TB.id, TK.id]) await shareProject(t, Xowner.id, OWNER);
  for (const g of [S.id, D.id, L.id, B.id, K.id]) await shareGroup(g, Xunshare.id, 30);

  // The lock on L (the project's own namespace), and on A: the lock cascades onto B
  // (force_share_with_group_lock_on_descendants), then B's is set back to false, the state after an Owner
  // of the locked parent lifted the subgroup's lock (GroupPolicy change_share_with_group_lock). Only the
  // project's own namespace's flag counts, so the share into TB grants its level again; K keeps the
  // cascaded lock, so the share into TK grants nothing.
  await ok('PUT', `/groups/${L.id}`, { share_with_group_lock: true }, 200);
  await ok('PUT', `/groups/${A.id}`, { share_with_group_lock: true }, 200);
  await inspect('UPDATE namespaces SET share_with_group_lock = false WHERE id = $1', [B.id]);
  const [cascaded] = await inspect<{ locked: boolean }>('SELECT share_with_group_lock AS locked FROM namespaces WHERE id = $1', [K.id]);
  if (!cascaded?.locked) throw new Error('the lock on A did not cascade onto its subgroup K');
  // Expiry dates in the past: the API refuses them, as GitLab does, so the fixture writes them.
  const expired = ROLE_LEVELS.map((l) => users['expired-membership'][l].id);
  await inspect('UPDATE project_members SET expires_at = $1 WHERE project_id = $2 AND user_id = ANY($3::int[])', [PAST, T.id, expired]);
  await inspect('UPDATE group_members SET expires_at = $1 WHERE group_id = $2 AND user_id = ANY($3::int[])', [PAST, D.id, expired]);
  await inspect('UPDATE project_group_links SET expires_at = $1 WHERE project_id = $2 AND group_id = $3', [PAST, T.id, Xe.id]);
  await inspect('UPDATE group_group_links SET expires_at = $1 WHERE shared_with_group_id = $2', [PAST, Xe.id]);
  for (const u of Object.values(blocked)) await ok('POST', `/users/${u.id}/block`, undefined, 201);

  const mrOf = (projectId: number) =>
    ok('POST', `/projects/${projectId}/merge_requests`, { title: 'policy', source_branch: 'policy-mr', target_branch: 'main' }, 201);
  const [mr, mrB] = await Promise.all([mrOf(T.id), mrOf(TB.id)]);
  targets['lock-lifted-by-parent-owner'].mrIid = mrB.iid;
  return {
    repo,
    main,
    mrIid: mr.iid,
    sha: repo.branches.main,
    targets,
    users,
    blocked,
    admin,
    nonmember,
    anchor,
    victim,
    victimOwner,
    pub,
    unshareGroup: Xunshare,
    ownerLinkGroup: Xowner,
    takenPath,
    topGroupPath: G.path,
    inS: S.id,
    groupIds: { G: G.id, S: S.id, D: D.id, L: L.id, A: A.id, B: B.id, K: K.id },
    invited: { Xp: Xp.id, Xg: Xg.id, Xa: Xa.id },
  };
}

export type { Level };
