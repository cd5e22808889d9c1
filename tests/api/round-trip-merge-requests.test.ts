// [MERGE REQUESTS] Issue 24's rule for Entities::MergeRequest: title, description, state (state_event),
// target_branch, assignees, assignee and reviewers are written by PUT and read back exactly; every other key
// is read-only with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { to, walkSettable } from '../support/round-trip';
import { removeRepo } from '../fixtures/git-repos';
import { mrProjectWithPeople, type MrPeople } from '../fixtures/merge-request-people';

const NOT_STORED = 'Runway does not keep it (GitLab feature outside its scope): a constant';
const READ_ONLY = {
  id: 'assigned on create',
  iid: 'assigned on create, per project',
  project_id: 'the target project',
  created_at: 'set on create',
  updated_at: 'set by every write',
  merged_by: 'set by merging (no merge endpoint in Runway)',
  merge_user: 'set by merging',
  merged_at: 'set by merging',
  closed_by: 'set by state_event=close (couples to state)',
  closed_at: 'set by state_event=close (couples to state)',
  source_branch: 'GitLab cannot change it after create',
  user_notes_count: NOT_STORED,
  upvotes: NOT_STORED,
  downvotes: NOT_STORED,
  author: 'the creator',
  source_project_id: 'set on create',
  target_project_id: 'the project (target_project_id on create)',
  labels: NOT_STORED,
  draft: 'derived from the title',
  imported: NOT_STORED,
  imported_from: NOT_STORED,
  work_in_progress: 'derived from the title',
  milestone: NOT_STORED,
  merge_when_pipeline_succeeds: NOT_STORED,
  merge_status: NOT_STORED,
  detailed_merge_status: 'derived from state and draft',
  merge_after: NOT_STORED,
  sha: 'the source branch tip',
  merge_commit_sha: 'set by merging',
  squash_commit_sha: NOT_STORED,
  discussion_locked: NOT_STORED,
  should_remove_source_branch: NOT_STORED,
  force_remove_source_branch: NOT_STORED,
  prepared_at: 'set on create',
  reference: 'derived from the iid',
  references: 'derived from the iid and project path',
  web_url: 'derived from the iid and project path',
  time_stats: NOT_STORED,
  squash: NOT_STORED,
  squash_on_merge: NOT_STORED,
  task_completion_status: NOT_STORED,
  has_conflicts: NOT_STORED,
  blocking_discussions_resolved: NOT_STORED,
  subscribed: "the reader's subscription (author or assignee)",
  changes_count: NOT_STORED,
  latest_build_started_at: NOT_STORED,
  latest_build_finished_at: NOT_STORED,
  first_deployed_to_production_at: NOT_STORED,
  pipeline: NOT_STORED,
  head_pipeline: NOT_STORED,
  diff_refs: 'derived from the branch tips (couples to target_branch)',
  merge_error: NOT_STORED,
  first_contribution: NOT_STORED,
  user: "the reader's permissions",
};

const people = (ids: unknown) => (ids as number[]).map((id) => expect.objectContaining({ id }));

let ctx: MrPeople;

beforeAll(async () => {
  ctx = await mrProjectWithPeople();
});
afterAll(() => removeRepo(ctx.repo));

describe('[MERGE REQUESTS] merge request round-trip', () => {
  it('the settable keys read back as written, each changing only itself and what it couples', async () => {
    const { project, dev, other, reviewer } = ctx;
    const made = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: dev.token,
      json: { title: 'Round trip', source_branch: 'topic', target_branch: 'main' },
    });
    expect(made.status, made.text).toBe(201);
    const url = `/projects/${project.id}/merge_requests/${made.body.iid}`;
    const walked = await walkSettable({
      entity: 'merge request',
      read: async () => (await api('GET', url, { token: dev.token })).body,
      update: (params) => api('PUT', url, { token: dev.token, json: params }),
      settable: {
        title: { next: to('Walked title') },
        description: { next: to('Walked description') },
        state: { next: to('closed'), params: () => ({ state_event: 'close' }), couples: ['closed_by', 'closed_at', 'detailed_merge_status'] },
        target_branch: { next: to('feature'), couples: ['diff_refs'] },
        assignees: { next: to([other.id, dev.id]), params: (v) => ({ assignee_ids: v }), expected: people, couples: ['assignee'] },
        assignee: {
          next: to(reviewer.id),
          params: (v) => ({ assignee_id: v }),
          expected: (v) => expect.objectContaining({ id: v }),
          couples: ['assignees'],
        },
        reviewers: { next: to([reviewer.id, other.id]), params: (v) => ({ reviewer_ids: v }), expected: people },
      },
      readOnly: READ_ONLY,
      volatile: ['updated_at'],
    });
    expect(walked).toEqual(['title', 'description', 'state', 'target_branch', 'assignees', 'assignee', 'reviewers']);
  });
});
