// Who may do what with a runner (GitLab 18.x Ci::RunnerPolicy, RunnerProjectPolicy and the project/group
// runner permissions). The one place these decisions are made; tested as a matrix of roles.
// Admins are treated as always in admin mode.
import type { Actor } from '../api/authenticate';
import { db, type Prisma } from '../db/client';
import type { Runner } from '../db/generated/client';
import { sql } from '../db/sql';
import type { RunnerPolicyFacts } from './queries';
import {
  AccessLevel,
  authorizedProjectIdsSql,
  groupAccessLevel as loadGroupAccessLevel,
  projectAccessLevel as loadProjectAccessLevel,
} from '../namespaces/access';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;
export type RunnerRef = Pick<Runner, 'id' | 'runnerType' | 'groupId' | 'ownerProjectId' | 'locked'>;

const isAdmin = (actor: Actor | null) => !!actor?.user.admin;

// An Actor lives for one request, so access levels looked up for it are remembered for the rest of the
// request: a runner request asks the same question more than once (read, then update for
// maintenance_note; `before` and handler both checking the project). Runner requests never change
// memberships. Lookups inside a transaction (a passed client) always go to the database.
const levels = new WeakMap<object, Map<string, Promise<number>>>();
function memoLevel(who: object | undefined, key: string, client: Client | undefined, load: () => Promise<number>): Promise<number> {
  if (!who || client) return load();
  let m = levels.get(who);
  if (!m) levels.set(who, (m = new Map()));
  let p = m.get(key);
  if (!p) {
    p = load();
    m.set(key, p);
    p.catch(() => m!.delete(key));
  }
  return p;
}

/** The actor's access level on a project / group, once per request (default client) or per call (transaction). */
const projectLevel = (actor: Actor, projectId: number, client?: Client) =>
  memoLevel(actor, `p${projectId}`, client, () => loadProjectAccessLevel(actor.user.id, projectId, client));
const groupLevel = (actor: Actor, groupId: number, client?: Client) =>
  memoLevel(actor, `g${groupId}`, client, () => loadGroupAccessLevel(actor.user.id, groupId, client));

/** The owner project: `owner_project_id`, or the earliest remaining link when the owner is gone. */
export async function ownerProjectId(runner: RunnerRef, client: Client = db()): Promise<number | null> {
  if (runner.ownerProjectId) return runner.ownerProjectId;
  const link = await client.runnerProject.findFirst({ where: { runnerId: runner.id }, orderBy: { id: 'asc' }, select: { projectId: true } });
  return link?.projectId ?? null;
}

export async function runnerProjectCount(runnerId: number, client: Client = db()): Promise<number> {
  return client.runnerProject.count({ where: { runnerId } });
}

/** Is the user Maintainer+ of any project the runner is assigned to? */
async function maintainsAssignedProject(userId: number, runnerId: number, client: Client = db()): Promise<boolean> {
  const rows = await client.$queryRaw<{ ok: boolean }[]>(sql`
    SELECT EXISTS (SELECT 1 FROM ci_runner_projects rp
      WHERE rp.runner_id = ${runnerId} AND rp.project_id IN (${authorizedProjectIdsSql(userId, AccessLevel.MAINTAINER)})) AS ok`);
  return !!rows[0]?.ok;
}

/** Is the user Maintainer+ of a project in the group's subtree that has group runners enabled? */
async function maintainsProjectUsingGroupRunners(userId: number, groupId: number): Promise<boolean> {
  const rows = await db().$queryRaw<{ ok: boolean }[]>(sql`
    SELECT EXISTS (SELECT 1 FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id
      WHERE ${groupId} = ANY(ns.traversal_ids) AND p.group_runners_enabled
        AND p.id IN (${authorizedProjectIdsSql(userId, AccessLevel.MAINTAINER)})) AS ok`);
  return !!rows[0]?.ok;
}

/** admin_runners on the runner's owner: Owner of the group, Maintainer+ of the owner project. */
async function adminsOwner(actor: Actor, runner: RunnerRef, client?: Client): Promise<boolean> {
  if (runner.runnerType === 'group_type') return !!runner.groupId && (await groupLevel(actor, runner.groupId, client)) >= AccessLevel.OWNER;
  if (runner.runnerType === 'project_type') {
    const owner = await ownerProjectId(runner, client);
    return !!owner && (await projectLevel(actor, owner, client)) >= AccessLevel.MAINTAINER;
  }
  return false;
}

/** A multi-project runner is "available" to maintainers of any of its projects (runner_available). */
async function availableMultiProject(userId: number, runner: RunnerRef, client: Client = db()): Promise<boolean> {
  if (runner.runnerType !== 'project_type') return false;
  if ((await runnerProjectCount(runner.id, client)) < 2) return false;
  return maintainsAssignedProject(userId, runner.id, client);
}

/**
 * read_runner: admins and instance runners; a group runner for Maintainers+ of its group and Maintainers+
 * of a project using the group's runners; a project runner for Maintainers+ of a project it is in.
 */
async function readsRunner(
  actor: Actor | null,
  runnerType: RunnerRef['runnerType'],
  groupId: number | null,
  maintainsItsProjects: (userId: number) => Promise<boolean>,
): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor) || runnerType === 'instance_type') return true;
  const uid = actor.user.id;
  if (runnerType === 'group_type') {
    if (!groupId) return false;
    if ((await groupLevel(actor, groupId)) >= AccessLevel.MAINTAINER) return true;
    return maintainsProjectUsingGroupRunners(uid, groupId);
  }
  return maintainsItsProjects(uid);
}

/** read_runner: GET /runners/:id, /managers, /projects. */
export function canReadRunner(actor: Actor | null, runner: RunnerRef): Promise<boolean> {
  return readsRunner(actor, runner.runnerType, runner.groupId, (uid) => maintainsAssignedProject(uid, runner.id));
}

/** What a deleted runner's row said about its owners (captured by the delete trigger, lib/runners/events.ts). */
export interface DeletedRunnerFacts {
  runnerType: RunnerRef['runnerType'];
  groupId: number | null;
  /** The projects it was assigned to; null when there were too many to capture. */
  projectIds: number[] | null;
}

/**
 * read_runner as it stood just before the runner was deleted, from the captured facts: who may hear of
 * the deletion. Unknown assignments (too many to capture) answer false: never tell of a runner unseen.
 */
export function canReadDeletedRunner(actor: Actor | null, f: DeletedRunnerFacts): Promise<boolean> {
  return readsRunner(actor, f.runnerType, f.groupId, async (uid) => {
    if (!f.projectIds?.length) return false;
    const rows = await db().$queryRaw<{ ok: boolean }[]>(sql`
      SELECT EXISTS (SELECT 1 FROM projects p WHERE p.id = ANY(${f.projectIds}::int[])
        AND p.id IN (${authorizedProjectIdsSql(uid, AccessLevel.MAINTAINER)})) AS ok`);
    return !!rows[0]?.ok;
  });
}

/** update_runner: PUT /runners/:id, reset_authentication_token; also who sees maintenance_note. */
export async function canUpdateRunner(actor: Actor | null, runner: RunnerRef, client?: Client): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  if (await adminsOwner(actor, runner, client)) return true;
  return availableMultiProject(actor.user.id, runner, client);
}

/** delete_runner (the "more than one project" refusal is checked first by the service). */
export async function canDeleteRunner(actor: Actor | null, runner: RunnerRef, client?: Client): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  if (runner.runnerType === 'project_type' && (await runnerProjectCount(runner.id, client)) > 1) return false;
  return adminsOwner(actor, runner, client);
}

/** read_builds on the runner: GET /runners/:id/jobs. */
export async function canReadRunnerJobs(actor: Actor | null, runner: RunnerRef): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  const uid = actor.user.id;
  if (runner.runnerType === 'group_type') return !!runner.groupId && (await groupLevel(actor, runner.groupId)) >= AccessLevel.MAINTAINER;
  if (runner.runnerType !== 'project_type') return false;
  return (await adminsOwner(actor, runner)) || (await availableMultiProject(uid, runner));
}

/** Non-admin readers see only jobs of projects where they are Reporter+ (null: no restriction). */
export function jobsVisibleToUserId(actor: Actor): number | null {
  return isAdmin(actor) ? null : actor.user.id;
}

/** assign_runner: may this user enable the (project) runner in further projects? Locked is checked apart. */
export async function canAssignRunner(actor: Actor | null, runner: RunnerRef): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  if (runner.runnerType !== 'project_type') return false;
  return (await adminsOwner(actor, runner)) || (await maintainsAssignedProject(actor.user.id, runner.id));
}

/** read_runners on a project (GET /projects/:id/runners): Maintainer+. */
export async function canReadProjectRunners(actor: Actor | null, projectId: number): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  return (await projectLevel(actor, projectId)) >= AccessLevel.MAINTAINER;
}

/** create_runners / admin_runners on a project (POST /projects/:id/runners): Maintainer+. */
export const canAdminProjectRunners = canReadProjectRunners;

/** read_runners on a group (GET /groups/:id/runners): Maintainer+. */
export async function canReadGroupRunners(actor: Actor | null, groupId: number): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  return (await groupLevel(actor, groupId)) >= AccessLevel.MAINTAINER;
}

/**
 * unassign_runner on a (runner, project) link: Maintainer+ of the project, never from the owner project,
 * never a locked runner (admins bypass both here; the service still refuses the owner project).
 */
export async function canUnassignRunner(actor: Actor | null, runner: RunnerRef, projectId: number, ownerId: number | null): Promise<boolean> {
  if (!actor) return false;
  if (isAdmin(actor)) return true;
  if (runner.locked || projectId === ownerId) return false;
  return (await projectLevel(actor, projectId)) >= AccessLevel.MAINTAINER;
}

/** Admins see every project and group of a runner; others only those they are members of. */
export function seesAllRunnerNamespaces(actor: Actor): boolean {
  return isAdmin(actor);
}

/**
 * What the actor may do with this runner, for pages that show only the actions that will work. Named
 * after GitLab's GraphQL `CiRunner.userPermissions` (readRunner, updateRunner, deleteRunner, assignRunner),
 * plus `read_jobs` (GET /runners/:id/jobs). Served by GET /runners/:id?with_permissions=true (a Runway
 * extension; REST has no such field).
 */
export interface RunnerPermissions {
  read_runner: boolean;
  update_runner: boolean;
  delete_runner: boolean;
  assign_runner: boolean;
  read_jobs: boolean;
}

export async function runnerPermissions(actor: Actor, runner: RunnerRef): Promise<RunnerPermissions> {
  const [read, update, del, assign, jobs] = await Promise.all([
    canReadRunner(actor, runner),
    canUpdateRunner(actor, runner),
    canDeleteRunner(actor, runner),
    canAssignRunner(actor, runner),
    canReadRunnerJobs(actor, runner),
  ]);
  // Only project runners join further projects, and a locked one only by an admin (as assignRunner checks).
  const assignable = runner.runnerType === 'project_type' && (isAdmin(actor) || !runner.locked);
  return { read_runner: read, update_runner: update, delete_runner: del, assign_runner: assign && assignable, read_jobs: jobs };
}

/**
 * runnerPermissions for a list page, from facts loaded with the page in one statement
 * (queries.ts loadRunnerListDetails) instead of several queries per runner. The same rules as the
 * functions above; tests/api/runners-list-details.test.ts checks both agree for every role.
 */
export function runnerPermissionsFromFacts(actor: Actor, runner: RunnerRef, f: RunnerPolicyFacts | null): RunnerPermissions {
  if (isAdmin(actor) || !f) {
    const all = isAdmin(actor);
    return { read_runner: all, update_runner: all, delete_runner: all, assign_runner: all && runner.runnerType === 'project_type', read_jobs: all };
  }
  const group = runner.runnerType === 'group_type';
  const project = runner.runnerType === 'project_type';
  const adminsOwner = group ? !!runner.groupId && f.groupOwner : project && f.ownerProjectId !== null && f.ownerProjectMaintainer;
  const multiProjectMaintainer = project && f.projectCount >= 2 && f.maintainsAssignedProject;
  const read = runner.runnerType === 'instance_type' || (group ? f.groupMaintainer || f.maintainsProjectUsingGroupRunners : f.maintainsAssignedProject);
  const assign = project && (adminsOwner || f.maintainsAssignedProject) && !runner.locked;
  return {
    read_runner: read,
    update_runner: adminsOwner || multiProjectMaintainer,
    delete_runner: !(project && f.projectCount > 1) && adminsOwner,
    assign_runner: assign,
    read_jobs: group ? !!runner.groupId && f.groupMaintainer : adminsOwner || multiProjectMaintainer,
  };
}

/**
 * The stale-runner cleanup (preview, run, runs, schedule) reaches runners of every owner, so it is for
 * admins only; group owners delete their group's runners one by one or in bulk from the list.
 */
export function canCleanUpRunners(actor: Actor | null): boolean {
  return isAdmin(actor);
}

/** A runner's Activity: its administrators (admins, group Owners, Maintainers of its projects). */
export async function canReadRunnerAuditEvents(
  actor: Actor,
  runner: Pick<Runner, 'id' | 'runnerType' | 'groupId' | 'ownerProjectId' | 'locked'>,
): Promise<boolean> {
  return actor.user.admin || canUpdateRunner(actor, runner);
}
