// Resolving /projects/:id/merge_requests/:iid the way GitLab's find_merge_request_with_access does:
// 404 Project, then 404 "Not found" for the MR, then 403 without read_merge_request; writers also
// need update_merge_request (403).
import type { Actor } from '../api/authenticate';
import { forbidden, recordNotFound } from '../api/errors';
import { findProject, projectViewer } from '../namespaces/resolve';
import type { ProjectRecord } from '../namespaces/records';
import { canCreateMergeRequest, canReadMergeRequests, canUpdateMergeRequest, type MrViewer } from './policy';
import { findMergeRequestByIid, type MrRow } from './queries';

export interface ProjectAccess {
  project: ProjectRecord;
  viewer: MrViewer;
}

export async function projectForMergeRequests(actor: Actor | null, projectId: string, need: 'read' | 'create'): Promise<ProjectAccess> {
  const project = await findProject(actor, projectId);
  const viewer: MrViewer = { ...(await projectViewer(actor, project)), userId: actor?.user.id ?? null };
  const allowed = need === 'read' ? canReadMergeRequests(viewer, project) : canCreateMergeRequest(viewer, project);
  if (!allowed) throw forbidden();
  return { project, viewer };
}

export async function mergeRequestWithAccess(
  actor: Actor | null,
  projectId: string,
  iid: string | number,
  need: 'read' | 'update',
): Promise<ProjectAccess & { mr: MrRow }> {
  const project = await findProject(actor, projectId);
  const mr = await findMergeRequestByIid(project.id, iid);
  if (!mr) throw recordNotFound();
  const viewer: MrViewer = { ...(await projectViewer(actor, project)), userId: actor?.user.id ?? null };
  if (!canReadMergeRequests(viewer, project)) throw forbidden();
  if (need === 'update' && !canUpdateMergeRequest(viewer, project, mr)) throw forbidden();
  return { project, viewer, mr };
}
