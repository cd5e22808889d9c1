// Whether the signed-in viewer may see the object a dashboard page shows, decided on the server before the
// page renders, with the lookups and policies the API's route handlers use: a page answers HTTP 404 exactly
// when the API answers 404 (or, as GitLab's pages do, where the API would refuse to read it), so a page never
// confirms that a hidden project, group or runner exists.
import { notFound as pageNotFound } from 'next/navigation';
import type { Actor } from '../auth/actor';
import { ApiError } from '../api/errors';
import { mergeRequestWithAccess } from '../merge-requests/access';
import { findGroup, findProject } from '../namespaces/resolve';
import { canReadGroupRunners, canReadRunner } from '../runners/policy';
import { findRunner } from '../runners/queries';
import { dashboardActor } from '../sessions/next-auth';

/** The API's 4xx (missing, unreadable, refused) become the page's 404; anything else is a real error. */
async function orNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) pageNotFound();
    throw err;
  }
}

export type PageTarget =
  | { kind: 'project'; fullPath: string }
  | { kind: 'group'; fullPath: string }
  | { kind: 'merge_request'; fullPath: string; iid: number }
  | { kind: 'group_runners'; fullPath: string }
  | { kind: 'runner'; id: number; scope: { kind: 'project' | 'group'; fullPath: string } | null };

/** Renders the dashboard's 404 (Next's notFound) unless the viewer may read `target`. */
export async function requirePageAccess(target: PageTarget): Promise<void> {
  const actor = await dashboardActor();
  // A signed-out visitor is sent to sign in by the dashboard's layout (as GitLab sends them to sign in rather
  // than answering 404): nothing is decided here for them.
  if (!actor) return;
  await orNotFound(() => check(actor, target));
}

async function check(actor: Actor | null, target: PageTarget): Promise<unknown> {
  switch (target.kind) {
    case 'project':
      return findProject(actor, target.fullPath);
    case 'group':
      return findGroup(actor, target.fullPath);
    case 'merge_request':
      await mergeRequestWithAccess(actor, target.fullPath, target.iid, 'read');
      return;
    case 'group_runners': {
      // GET /groups/:id/runners: Maintainer+ (GitLab's group runners page answers 404 to the others).
      const group = await findGroup(actor, target.fullPath);
      if (!(await canReadGroupRunners(actor, group.id))) pageNotFound();
      return;
    }
    case 'runner': {
      if (target.scope) await check(actor, { kind: target.scope.kind, fullPath: target.scope.fullPath });
      // GET /runners/:id: 404 when missing, 403 when the viewer may not read it; the page is not found for both.
      const runner = await findRunner(target.id);
      if (!runner || !(await canReadRunner(actor, runner))) pageNotFound();
      return;
    }
  }
}
