// What the dashboard offers on a merge request, by the rule the API enforces (lib/merge-requests/policy.ts:
// update_merge_request). The server module reads the database, so pages cannot import it; a unit test
// holds the two to the same answers.
import type { MergeRequest } from './types';

export const DEVELOPER = 30;

/** Developer+ or admin, or the merge request's author or an assignee (who can read it, as the page loaded). */
export function canUpdateMergeRequest(viewer: { id: number; admin: boolean; level: number }, mr: Pick<MergeRequest, 'author' | 'assignees'>): boolean {
  if (viewer.admin || viewer.level >= DEVELOPER) return true;
  return mr.author?.id === viewer.id || mr.assignees.some((a) => a.id === viewer.id);
}
