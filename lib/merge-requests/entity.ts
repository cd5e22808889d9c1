// GitLab's MergeRequestBasic / MergeRequest entities (fields in GitLab's expose order) for the data Runway
// holds, and the context-commit entity of GET .../context_commits.
import type { MergeRequestContextCommit, User } from '../db/generated/client';
import type { ProjectRecord } from '../namespaces/records';
import { projectWebUrl } from '../namespaces/entity';
import { userBasic } from '../users/entity';
import { shortSha } from '../repositories/entity';
import type { MrPageData, MrRow } from './queries';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const user = (data: MrPageData, id: number | null) => {
  const u: User | undefined = id ? data.users.get(id) : undefined;
  return u ? userBasic(u) : null;
};

export function mergeRequestWebUrl(project: ProjectRecord, iid: number): string {
  return `${projectWebUrl(project)}/-/merge_requests/${iid}`;
}

/** The source tip for open MRs follows the branch; closed and merged ones keep what was recorded. */
function headSha(mr: MrRow, data: MrPageData): string | null {
  return mr.state === 'opened' || mr.state === 'locked' ? (data.tips.get(mr.sourceBranch) ?? mr.sha) : mr.sha;
}

/** GitLab's IssuableEntity fields, first in every merge request shape. */
function issuableFields(mr: MrRow) {
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: iso(mr.createdAt),
    updated_at: iso(mr.updatedAt),
  };
}

export function mergeRequestSimple(mr: MrRow, project: ProjectRecord) {
  return Object.assign(issuableFields(mr), { web_url: mergeRequestWebUrl(project, mr.iid) });
}

export function mergeRequestBasic(mr: MrRow, project: ProjectRecord, data: MrPageData) {
  const assignees = mr.assigneeIds.map((id) => user(data, id)).filter((u) => u !== null);
  const reviewers = mr.reviewerIds.map((id) => user(data, id)).filter((u) => u !== null);
  const open = mr.state === 'opened';
  return Object.assign(issuableFields(mr), {
    merged_by: user(data, mr.mergedById),
    merge_user: user(data, mr.mergedById),
    merged_at: iso(mr.mergedAt),
    closed_by: user(data, mr.closedById),
    closed_at: iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    author: user(data, mr.authorId),
    assignees,
    assignee: assignees.length ? assignees[0] : null,
    reviewers,
    source_project_id: mr.sourceProjectId,
    target_project_id: mr.projectId,
    labels: [],
    draft: mr.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: mr.draft,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: open ? (mr.draft ? 'draft_status' : 'mergeable') : 'not_open',
    merge_after: null,
    sha: headSha(mr, data),
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: null,
    prepared_at: iso(mr.createdAt),
    reference: `!${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${project.fullPath}!${mr.iid}` },
    web_url: mergeRequestWebUrl(project, mr.iid),
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: false,
    squash_on_merge: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
  });
}

/** The single-MR entity: MergeRequestBasic plus the detail fields. */
export function mergeRequestEntity(mr: MrRow, project: ProjectRecord, data: MrPageData, opts: { viewerId: number | null; canMerge: boolean }) {
  const head = headSha(mr, data);
  const start = data.tips.get(mr.targetBranch) ?? null;
  return Object.assign(mergeRequestBasic(mr, project, data), {
    subscribed: opts.viewerId !== null && (opts.viewerId === mr.authorId || mr.assigneeIds.includes(opts.viewerId)),
    changes_count: null,
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: head ? { base_sha: start, head_sha: head, start_sha: start } : null,
    merge_error: null,
    first_contribution: false,
    user: { can_merge: opts.canMerge },
  });
}

/**
 * A stored context commit as GET lists it: the snapshot in the context-commit row, parent_ids null
 * (not stored), timestamps in UTC as the timestamptz columns give them.
 */
export function contextCommitEntity(c: MergeRequestContextCommit) {
  const title = c.message.split(/[\r\n]/, 1)[0] ?? '';
  return {
    id: c.sha,
    short_id: shortSha(c.sha),
    created_at: iso(c.committedDate),
    parent_ids: null,
    title,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: iso(c.authoredDate),
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: iso(c.committedDate),
  };
}
