// Merge request abilities, as GitLab's ProjectPolicy + IssuablePolicy grant them:
// - read_merge_request: like read_code (public: all; internal: signed in; private: Reporter+; admins).
// - create (create_merge_request_from, same project): Developer+ or admin.
// - update_merge_request (and so context commits POST/DELETE): Developer+, admins, or the MR's author or
//   an assignee who can read the MR.
import { AccessLevel } from '../namespaces/access';
import type { Viewer, VisibilityName } from '../namespaces/policy';
import { canReadCode } from '../repositories/policy';

export interface MrViewer extends Viewer {
  userId: number | null;
}

export interface MrParticipants {
  authorId: number | null;
  assigneeIds: number[];
}

export const canReadMergeRequests = (viewer: Viewer, project: { visibility: VisibilityName }) => canReadCode(viewer, project);

export const canCreateMergeRequest = (viewer: Viewer, project: { visibility: VisibilityName }) =>
  viewer.signedIn && (viewer.admin || viewer.level >= AccessLevel.DEVELOPER) && canReadMergeRequests(viewer, project);

export function canUpdateMergeRequest(viewer: MrViewer, project: { visibility: VisibilityName }, mr: MrParticipants): boolean {
  if (!viewer.signedIn || !canReadMergeRequests(viewer, project)) return false;
  if (viewer.admin || viewer.level >= AccessLevel.DEVELOPER) return true;
  return viewer.userId !== null && (mr.authorId === viewer.userId || mr.assigneeIds.includes(viewer.userId));
}

/** admin_merge_request (setting assignees and reviewers): Developer+ and admins. */
export const canAdminMergeRequest = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.DEVELOPER;

/** destroy_merge_request: project Owners and admins. */
export const canDeleteMergeRequest = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.OWNER;
