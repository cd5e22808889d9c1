// [MERGE REQUESTS] GET /merge_requests (scope, state, pagination), PUT (author or Developer+; title,
// description, target_branch, state_event close/reopen) and DELETE (project Owners and admins; its context
// commits go with it) on /projects/:id/merge_requests/:merge_request_iid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addGroupMember, addProjectMember, createGroup } from '../support/namespaces';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';
import { dbQuery } from './runners-admin-support';

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string };
let author: TestUser;
let dev: TestUser;
let reporter: TestUser;
let owner: TestUser;
const mrs = () => `/projects/${project.id}/merge_requests`;

async function openMr(token: string, source: string, title = `MR from ${source}`, extra: Record<string, unknown> = {}) {
  const res = await api('POST', mrs(), { token, json: { title, source_branch: source, target_branch: 'main', ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; iid: number };
}

beforeAll(async () => {
  repo = buildSampleRepo({ extraBranches: ['u-1', 'u-2', 'u-3', 'u-4', 'u-5', 'u-6', 'u-7', 'u-8', 'u-9'] });
  project = await importedProject(repo.dir);
  [author, dev, reporter, owner] = [await createUser(), await createUser(), await createUser(), await createUser()];
  await addProjectMember(rootToken(), project.id, author.id, 30);
  await addProjectMember(rootToken(), project.id, dev.id, 30);
  await addProjectMember(rootToken(), project.id, reporter.id, 20);
  await addProjectMember(rootToken(), project.id, owner.id, 50);
});
afterAll(() => removeRepo(repo));

describe('[MERGE REQUESTS] GET /merge_requests', () => {
  it('created_by_me by default, assigned_to_me, all; state filter; MergeRequestBasic; 401 unless scope=all', async () => {
    const mine = await openMr(author.token, 'u-1', 'Mine open');
    const mineClosed = await openMr(author.token, 'u-2', 'Mine closed');
    await api('PUT', `${mrs()}/${mineClosed.iid}`, { token: author.token, json: { state_event: 'close' } });
    const assigned = await openMr(dev.token, 'u-3', 'Assigned to author', { assignee_ids: [author.id] });

    const def = await api('GET', '/merge_requests', { token: author.token });
    expect(def.status).toBe(200);
    expect(def.body.map((m: { id: number }) => m.id)).toEqual([mineClosed.id, mine.id]);
    expect(def.body[0]).toMatchObject({ iid: mineClosed.iid, project_id: project.id, state: 'closed', author: { id: author.id } });
    expect(def.body[0]).toHaveProperty('references');
    expect(def.body[0]).not.toHaveProperty('diff_refs');
    expect(def.headers.get('x-total')).toBe('2');

    const opened = await api('GET', '/merge_requests', { token: author.token, query: { state: 'opened' } });
    expect(opened.body.map((m: { id: number }) => m.id)).toEqual([mine.id]);
    const asg = await api('GET', '/merge_requests', { token: author.token, query: { scope: 'assigned-to-me' } });
    expect(asg.body.map((m: { id: number }) => m.id)).toEqual([assigned.id]);
    const simple = await api('GET', '/merge_requests', { token: author.token, query: { scope: 'assigned_to_me', view: 'simple' } });
    expect(Object.keys(simple.body[0])).toEqual(['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url']);
    const page = await api('GET', '/merge_requests', { token: author.token, query: { per_page: 1, page: 2, sort: 'asc' } });
    expect(page.body.map((m: { id: number }) => m.id)).toEqual([mineClosed.id]);
    expect(page.headers.get('x-total-pages')).toBe('2');

    expect((await api('GET', '/merge_requests')).status).toBe(401);
    expect((await api('GET', '/merge_requests', { query: { scope: 'mine' } })).body).toEqual({ error: 'scope does not have a valid value' });
    // The project is private: scope=all shows its MRs to members, not to strangers or anonymous callers.
    const all = await api('GET', '/merge_requests', { token: reporter.token, query: { scope: 'all' } });
    expect(all.body.map((m: { id: number }) => m.id)).toEqual(expect.arrayContaining([mine.id, mineClosed.id, assigned.id]));
    const stranger = await createUser();
    const none = await api('GET', '/merge_requests', { token: stranger.token, query: { scope: 'all' } });
    expect(none.body.filter((m: { project_id: number }) => m.project_id === project.id)).toEqual([]);
    const anon = await api('GET', '/merge_requests', { query: { scope: 'all' } });
    expect(anon.status).toBe(200);
    expect(anon.body.filter((m: { project_id: number }) => m.project_id === project.id)).toEqual([]);
  });
});

describe('[MERGE REQUESTS] PUT /projects/:id/merge_requests/:iid', () => {
  it('the author and Developers update; Reporters get 403; answers Entities::MergeRequest', async () => {
    const mr = await openMr(author.token, 'u-4');
    const url = `${mrs()}/${mr.iid}`;
    expect(await api('PUT', url, { token: reporter.token, json: { title: 'no' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const res = await api('PUT', url, { token: author.token, json: { title: 'Draft: retitled', description: 'Why', target_branch: 'feature' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ iid: mr.iid, title: 'Draft: retitled', description: 'Why', target_branch: 'feature', draft: true, state: 'opened' });
    expect(res.body).toHaveProperty('diff_refs');
    const closed = await api('PUT', url, { token: dev.token, json: { state_event: 'close' } });
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: dev.id } });
    expect(closed.body.closed_at).not.toBeNull();
    const reopened = await api('PUT', url, { token: dev.token, json: { state_event: 'reopen' } });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
    expect((await api('PUT', url, { token: dev.token, json: {} })).body).toEqual({
      error: 'assignee_id, assignee_ids, reviewer_ids, description, target_branch, title, state_event are missing, at least one parameter must be provided',
    });
  });

  it('GitLab validation: blank title 400, missing or same target branch 422, reopening a duplicate 422', async () => {
    const mr = await openMr(author.token, 'u-5');
    const url = `${mrs()}/${mr.iid}`;
    expect(await api('PUT', url, { token: author.token, json: { title: ' ' } })).toMatchObject({
      status: 400,
      body: { message: { title: ["can't be blank"] } },
    });
    expect(await api('PUT', url, { token: author.token, json: { target_branch: 'nope' } })).toMatchObject({
      status: 422,
      body: { message: ['Target branch "nope" does not exist'] },
    });
    expect(await api('PUT', url, { token: author.token, json: { target_branch: 'u-5' } })).toMatchObject({
      status: 422,
      body: { message: ["You can't use same project/branch for source and target"] },
    });
    await api('PUT', url, { token: author.token, json: { state_event: 'close' } });
    const again = await openMr(author.token, 'u-5');
    expect(await api('PUT', url, { token: author.token, json: { state_event: 'reopen' } })).toMatchObject({
      status: 422,
      body: { message: [`Another open merge request already exists for this source branch: !${again.iid}`] },
    });
    expect((await api('PUT', `${mrs()}/999999`, { token: author.token, json: { title: 'x' } })).status).toBe(404);
    expect((await api('PUT', url, { json: { title: 'x' } })).status).toBe(401);
  });
});

describe('[MERGE REQUESTS] PUT assignee_id, assignee_ids, reviewer_ids', () => {
  const ids = (people: { id: number }[]) => people.map((p) => p.id);

  it('sets, changes and clears assignees and reviewers; GET shows them; people alone are an update', async () => {
    const mr = await openMr(author.token, 'u-7');
    const url = `${mrs()}/${mr.iid}`;
    const set = await api('PUT', url, { token: dev.token, json: { assignee_ids: [author.id, dev.id], reviewer_ids: [reporter.id] } });
    expect(set.status, set.text).toBe(200);
    expect(ids(set.body.assignees)).toEqual([author.id, dev.id]);
    expect(set.body.assignee).toMatchObject({ id: author.id, username: author.username });
    expect(ids(set.body.reviewers)).toEqual([reporter.id]);
    const shown = (await api('GET', url, { token: reporter.token })).body;
    expect({ a: ids(shown.assignees), r: ids(shown.reviewers), first: shown.assignee.id }).toEqual({
      a: [author.id, dev.id],
      r: [reporter.id],
      first: author.id,
    });
    expect(Date.parse(shown.updated_at)).toBeGreaterThan(Date.parse(set.body.created_at));

    // Comma-separated and ids[]= forms, as create takes them; those who stay keep their place.
    const changed = await api('PUT', url, {
      token: dev.token,
      form: { assignee_ids: `${owner.id},${dev.id}`, reviewer_ids: [String(dev.id), String(owner.id)] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect({ a: ids(changed.body.assignees), r: ids(changed.body.reviewers) }).toEqual({ a: [dev.id, owner.id], r: [dev.id, owner.id] });
    const query = await api('PUT', url, { token: dev.token, query: { reviewer_ids: [String(author.id)] } });
    expect(ids(query.body.reviewers)).toEqual([author.id]);

    // assignee_id is the whole list and wins over assignee_ids (GitLab's legacy conversion).
    const single = await api('PUT', url, { token: dev.token, json: { assignee_id: reporter.id, assignee_ids: [owner.id] } });
    expect(ids(single.body.assignees)).toEqual([reporter.id]);

    // Clearing: [] and [0] for the lists, 0 for assignee_id; other fields untouched.
    const cleared = await api('PUT', url, { token: dev.token, json: { assignee_id: 0, reviewer_ids: [] } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ assignees: [], assignee: null, reviewers: [], title: 'MR from u-7', state: 'opened' });
    await api('PUT', url, { token: dev.token, json: { assignee_ids: [dev.id], reviewer_ids: [dev.id] } });
    const zeros = await api('PUT', url, { token: dev.token, json: { assignee_ids: [0], reviewer_ids: '0' } });
    expect({ a: zeros.body.assignees, r: zeros.body.reviewers }).toEqual({ a: [], r: [] });
    await api('PUT', url, { token: dev.token, json: { assignee_ids: [dev.id] } });
    const emptyString = await api('PUT', url, { token: dev.token, form: { assignee_ids: '' } });
    expect(emptyString.body.assignees).toEqual([]);
    const rows = await dbQuery('SELECT user_id FROM merge_request_assignees WHERE merge_request_id = $1', [mr.id]);
    expect(rows).toEqual([]);
  });

  it('drops users who cannot read the MR and unknown ids silently; keeps a user with access through a group share', async () => {
    const mr = await openMr(author.token, 'u-8');
    const url = `${mrs()}/${mr.iid}`;
    const [stranger, guest, viaShare] = [await createUser(), await createUser(), await createUser()];
    await addProjectMember(rootToken(), project.id, guest.id, 10);
    const team = await createGroup(rootToken());
    await addGroupMember(rootToken(), team.id, viaShare.id, 20);
    const share = await api('POST', `/projects/${project.id}/share`, { token: rootToken(), json: { group_id: team.id, group_access: 30 } });
    expect(share.status, share.text).toBe(201);

    const res = await api('PUT', url, {
      token: dev.token,
      json: { assignee_ids: [stranger.id, viaShare.id, 2147483000, guest.id, dev.id], reviewer_ids: [guest.id, viaShare.id] },
    });
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body.assignees)).toEqual([viaShare.id, dev.id]);
    expect(ids(res.body.reviewers)).toEqual([viaShare.id]);
    // When no given id qualifies, GitLab leaves the list as it was rather than emptying it.
    const none = await api('PUT', url, { token: dev.token, json: { assignee_ids: [stranger.id], reviewer_ids: [2147483000] } });
    expect(none.status, none.text).toBe(200);
    expect({ a: ids(none.body.assignees), r: ids(none.body.reviewers) }).toEqual({ a: [viaShare.id, dev.id], r: [viaShare.id] });
    // The share ending takes the access away: that user is no longer assignable.
    await api('DELETE', `/projects/${project.id}/share/${team.id}`, { token: rootToken() });
    const after = await api('PUT', url, { token: dev.token, json: { assignee_ids: [viaShare.id, author.id] } });
    expect(ids(after.body.assignees)).toEqual([author.id]);
  });

  it('the author below Developer (no admin_merge_request) has people parameters ignored', async () => {
    const mr = await openMr(dev.token, 'u-9', 'Reporter-assigned', { assignee_ids: [reporter.id] });
    const url = `${mrs()}/${mr.iid}`;
    // reporter may update as an assignee, but not change the people.
    const res = await api('PUT', url, { token: reporter.token, json: { title: 'Retitled', assignee_ids: [0], reviewer_ids: [dev.id] } });
    expect(res.status, res.text).toBe(200);
    expect({ title: res.body.title, a: ids(res.body.assignees), r: res.body.reviewers }).toEqual({ title: 'Retitled', a: [reporter.id], r: [] });
    await api('PUT', url, { token: dev.token, json: { state_event: 'close' } });
  });
});

describe('[MERGE REQUESTS] DELETE /projects/:id/merge_requests/:iid', () => {
  it('Owners and admins only; 204; the context commits go with it', async () => {
    const mr = await openMr(author.token, 'u-6');
    const url = `${mrs()}/${mr.iid}`;
    const added = await api('POST', `${url}/context_commits`, { token: author.token, json: { commits: [repo.branches.topic] } });
    expect(added.status, added.text).toBe(201);
    for (const who of [author, dev]) expect(await api('DELETE', url, { token: who.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const res = await api('DELETE', url, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await dbQuery('SELECT 1 FROM merge_request_context_commits WHERE merge_request_id = $1', [mr.id])).toEqual([]);
    expect(await api('GET', url, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api('DELETE', url, { token: rootToken() })).status).toBe(404);
  });
});
