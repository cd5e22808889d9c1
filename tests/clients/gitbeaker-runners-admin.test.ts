// @gitbeaker/rest 43.8 against the runner admin API: Runners.all (admin /runners/all, owned, project and
// group lists) with pagination, show, edit, allJobs, enable/disable in a project, remove by id.
import { Gitlab } from '@gitbeaker/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, uniq } from '../support/api';
import { createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { addJobs, createRunner } from '../api/runners-admin-support';

let admin: TestUser;
let owner: TestUser;
let group: any;
let project: any;
let project2: any;
const tag = uniq('gb');
const r: Record<string, number> = {};
let gAdmin: InstanceType<typeof Gitlab>;
let gOwner: InstanceType<typeof Gitlab>;

beforeAll(async () => {
  [admin, owner] = await Promise.all([createUser({ admin: true }), createUser()]);
  group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
  project2 = await createProject(owner.token, { namespaceId: group.id });
  r.instance = await createRunner('instance_type', { token: admin.token, tags: [tag] });
  r.group = await createRunner('group_type', { token: owner.token, groupId: group.id, tags: [tag] });
  r.p1 = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag] });
  r.p2 = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag, 'extra'] });
  r.p3 = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag] });
  gAdmin = new Gitlab({ host: baseUrl(), token: admin.token });
  gOwner = new Gitlab({ host: baseUrl(), token: owner.token });
});

describe('[RUNNERS] gitbeaker runner administration', () => {
  it('Runners.all pages through /runners/all with tag_list[] and reports pagination', async () => {
    const every = await gAdmin.Runners.all({ tagList: [tag], perPage: 2 });
    expect(every.map((x) => x.id)).toEqual([r.instance, r.group, r.p1, r.p2, r.p3]);
    const expanded = await gAdmin.Runners.all({ tagList: [tag], perPage: 2, maxPages: 1, showExpanded: true });
    expect(expanded.data.map((x) => x.id)).toEqual([r.instance, r.group]);
    expect(expanded.paginationInfo).toMatchObject({ total: 5, totalPages: 3, perPage: 2, current: 1, next: 2, previous: null });
    const both = await gAdmin.Runners.all({ tagList: [tag, 'extra'] });
    expect(both.map((x) => x.id)).toEqual([r.p2]);
    const typed = await gAdmin.Runners.all({ tagList: [tag], type: 'project_type', status: 'never_contacted', perPage: 2 });
    expect(typed.map((x) => x.id)).toEqual([r.p1, r.p2, r.p3]);
  });

  it('owned, project and group lists', async () => {
    expect((await gOwner.Runners.all({ owned: true, tagList: [tag] })).map((x) => x.id)).toEqual([r.group, r.p1, r.p2, r.p3]);
    expect((await gOwner.Runners.all({ projectId: project.id, type: 'project_type' })).map((x) => x.id)).toEqual([r.p1, r.p2, r.p3]);
    expect((await gOwner.Runners.all({ groupId: group.id, type: 'group_type' })).map((x) => x.id)).toEqual([r.group]);
    await expect(gOwner.Runners.all()).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });

  it('show and edit (pause, tags, description)', async () => {
    const shown = await gOwner.Runners.show(r.p1);
    expect(shown).toMatchObject({ id: r.p1, runner_type: 'project_type', tag_list: [tag], paused: false, status: 'never_contacted', online: null });
    const edited = await gOwner.Runners.edit(r.p1, { description: 'edited by gitbeaker', paused: true, tagList: [tag, 'gb2'], maximumTimeout: 7200 });
    expect(edited).toMatchObject({ id: r.p1, description: 'edited by gitbeaker', paused: true, active: false, tag_list: [tag, 'gb2'], maximum_timeout: 7200 });
    await expect(gOwner.Runners.edit(r.p1, { maximumTimeout: 10 })).rejects.toMatchObject({ cause: { response: { status: 400 } } });
    await expect(gOwner.Runners.show(r.instance + 999_999_999)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it('allJobs pages a runner job list', async () => {
    const jobs = await addJobs(r.p2, project.id, 5);
    const listed = await gOwner.Runners.allJobs(r.p2, { perPage: 2 });
    expect(listed.map((j) => j.id)).toEqual(jobs);
    const desc = await gOwner.Runners.allJobs(r.p2, { orderBy: 'id', sort: 'desc', perPage: 2, maxPages: 1 });
    expect(desc.map((j) => j.id)).toEqual([...jobs].reverse().slice(0, 2));
  });

  it('enable and disable a runner in a project, then remove it', async () => {
    const enabled = await gOwner.Runners.enable(project2.id, r.p3);
    expect(enabled).toMatchObject({ id: r.p3, runner_type: 'project_type' });
    expect(((await gOwner.Runners.show(r.p3)).projects as any[]).map((p: any) => p.id)).toEqual([project.id, project2.id]);
    await expect(gOwner.Runners.remove({ runnerId: r.p3 })).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    await gOwner.Runners.disable(project2.id, r.p3);
    expect(((await gOwner.Runners.show(r.p3)).projects as any[]).map((p: any) => p.id)).toEqual([project.id]);
    await gOwner.Runners.remove({ runnerId: r.p3 });
    await expect(gAdmin.Runners.show(r.p3)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
