// A project's runner settings: PUT /projects/:id with `shared_runners_enabled` / `group_runners_enabled`
// (GitLab's attributes, Maintainer+) and what GET /projects/:id/runners then lists; and Runway's
// GET /projects/:id/runners/assignable, the "Other available runners" of the CI/CD settings page.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner, dbQuery } from './runners-admin-support';

const ids = (body: { id: number }[]) => body.map((r) => r.id).sort((a, b) => a - b);
const listed = async (projectId: number, token: string, query: Record<string, string> = {}) => {
  const res = await api('GET', `/projects/${projectId}/runners`, { token, query: { per_page: '100', ...query } });
  expect(res.status, res.text).toBe(200);
  return ids(res.body);
};

describe('[RUNNERS] project runner settings', () => {
  let maintainer: TestUser, developer: TestUser, outsider: TestUser, admin: TestUser;
  let group: { id: number }, project: { id: number }, sibling: { id: number }, foreign: { id: number };
  const mark = `settings-${process.pid}-${Date.now()}`;
  const r = {} as Record<'instance' | 'group' | 'own' | 'siblingOpen' | 'siblingLocked' | 'foreignOpen', number>;

  beforeAll(async () => {
    const root = rootToken();
    [maintainer, developer, outsider, admin] = await Promise.all([createUser(), createUser(), createUser(), createUser({ admin: true })]);
    group = await createGroup(root);
    project = await createProject(root, { namespaceId: group.id });
    sibling = await createProject(root, { namespaceId: group.id });
    foreign = await createProject(root);
    await addGroupMember(root, group.id, maintainer.id, 40);
    await addProjectMember(root, project.id, developer.id, 30);
    r.instance = await createRunner('instance_type');
    r.group = await createRunner('group_type', { groupId: group.id });
    // One tag on this file's project runners: an admin may enable any project runner of the instance, and the
    // database may hold many from other files and earlier runs, so the admin's checks filter on it.
    const tags = [mark];
    r.own = await createRunner('project_type', { projectId: project.id, tags });
    r.siblingOpen = await createRunner('project_type', { projectId: sibling.id, tags });
    r.siblingLocked = await createRunner('project_type', { projectId: sibling.id, locked: true, tags });
    r.foreignOpen = await createRunner('project_type', { projectId: foreign.id, tags });
  });

  it('lists instance runners only while shared_runners_enabled is on, and GET /projects/:id shows the switch', async () => {
    expect(await listed(project.id, maintainer.token)).toEqual(expect.arrayContaining([r.instance, r.group, r.own]));
    const off = await api('PUT', `/projects/${project.id}`, { token: maintainer.token, json: { shared_runners_enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ id: project.id, shared_runners_enabled: false, group_runners_enabled: true });
    expect((await api('GET', `/projects/${project.id}`, { token: maintainer.token })).body.shared_runners_enabled).toBe(false);
    const without = await listed(project.id, maintainer.token);
    expect(without).not.toContain(r.instance);
    expect(without).toEqual(expect.arrayContaining([r.group, r.own]));
    expect(await listed(project.id, maintainer.token, { type: 'instance_type' })).toEqual([]);
    const on = await api('PUT', `/projects/${project.id}`, { token: maintainer.token, form: { shared_runners_enabled: 'true' } });
    expect(on.status, on.text).toBe(200);
    expect(await listed(project.id, maintainer.token)).toContain(r.instance);
  });

  it('lists group runners only while group_runners_enabled is on', async () => {
    const off = await api('PUT', `/projects/${project.id}`, { token: maintainer.token, json: { group_runners_enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.group_runners_enabled).toBe(false);
    const without = await listed(project.id, maintainer.token);
    expect(without).not.toContain(r.group);
    expect(without).toEqual(expect.arrayContaining([r.instance, r.own]));
    await api('PUT', `/projects/${project.id}`, { token: maintainer.token, json: { group_runners_enabled: true } });
    expect(await listed(project.id, maintainer.token)).toContain(r.group);
  });

  it('refuses the switches to developers (403), hides private projects from non-members (404) and validates input', async () => {
    const dev = await api('PUT', `/projects/${project.id}`, { token: developer.token, json: { shared_runners_enabled: false } });
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }]);
    const stranger = await api('PUT', `/projects/${project.id}`, { token: outsider.token, json: { shared_runners_enabled: false } });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const anonymous = await api('PUT', `/projects/${project.id}`, { json: { shared_runners_enabled: false } });
    expect(anonymous.status).toBe(401);
    const none = await api('PUT', `/projects/${project.id}`, { token: maintainer.token, json: {} });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/shared_runners_enabled, group_runners_enabled, .* are missing, at least one parameter must be provided$/);
    const bad = await api('PUT', `/projects/${project.id}`, { token: maintainer.token, json: { shared_runners_enabled: 'maybe' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'shared_runners_enabled is invalid' }]);
    // Nothing changed by the refused requests.
    expect((await api('GET', `/projects/${project.id}`, { token: maintainer.token })).body.shared_runners_enabled).toBe(true);
  });

  it("refuses to turn instance runners on when the project's group disables them unoverridably", async () => {
    const locked = await createGroup(rootToken());
    const inside = await createProject(rootToken(), { namespaceId: locked.id });
    await api('PUT', `/projects/${inside.id}`, { token: rootToken(), json: { shared_runners_enabled: false } });
    await dbQuery('UPDATE namespaces SET shared_runners_enabled = false WHERE id = $1', [locked.id]);
    const res = await api('PUT', `/projects/${inside.id}`, { token: rootToken(), json: { shared_runners_enabled: true } });
    expect([res.status, res.body]).toEqual([400, { message: { shared_runners_enabled: ['cannot be enabled because parent group does not allow it'] } }]);
    expect((await api('GET', `/projects/${inside.id}`, { token: rootToken() })).body.shared_runners_enabled).toBe(false);
    // Turning group runners off is still allowed there.
    expect((await api('PUT', `/projects/${inside.id}`, { token: rootToken(), json: { group_runners_enabled: false } })).status).toBe(200);
  });

  it("offers the unlocked project runners of the caller's other projects, not yet in this project", async () => {
    const res = await api('GET', `/projects/${project.id}/runners/assignable`, { token: maintainer.token });
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([r.siblingOpen]);
    expect(res.headers.get('x-total')).toBe('1');
    expect(res.body[0]).toMatchObject({ id: r.siblingOpen, runner_type: 'project_type', is_shared: false });
    // Admins may enable any unlocked project runner.
    const all = ids((await api('GET', `/projects/${project.id}/runners/assignable`, { token: admin.token, query: { per_page: '100', tag_list: mark } })).body);
    expect(all).toEqual([r.siblingOpen, r.foreignOpen]);
    expect(all).toEqual(expect.arrayContaining([r.siblingOpen, r.foreignOpen]));
    expect(all).not.toContain(r.siblingLocked);
    expect(all).not.toContain(r.own);
    // Pagination as every runner list.
    const paged = await api('GET', `/projects/${project.id}/runners/assignable`, { token: admin.token, query: { per_page: '1' } });
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-next-page')).toBe('2');
  });

  it('drops a runner from the assignable list once it is enabled, and offers it again after it is disabled', async () => {
    const enable = await api('POST', `/projects/${project.id}/runners`, { token: maintainer.token, json: { runner_id: r.siblingOpen } });
    expect(enable.status, enable.text).toBe(201);
    expect(await listed(project.id, maintainer.token, { type: 'project_type' })).toEqual([r.own, r.siblingOpen].sort((a, b) => a - b));
    expect(ids((await api('GET', `/projects/${project.id}/runners/assignable`, { token: maintainer.token })).body)).toEqual([]);
    const disable = await api('DELETE', `/projects/${project.id}/runners/${r.siblingOpen}`, { token: maintainer.token });
    expect(disable.status, disable.text).toBe(204);
    expect(ids((await api('GET', `/projects/${project.id}/runners/assignable`, { token: maintainer.token })).body)).toEqual([r.siblingOpen]);
  });

  it('answers the assignable list only to Maintainers and up', async () => {
    const dev = await api('GET', `/projects/${project.id}/runners/assignable`, { token: developer.token });
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }]);
    const stranger = await api('GET', `/projects/${project.id}/runners/assignable`, { token: outsider.token });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const badType = await api('GET', `/projects/${project.id}/runners/assignable`, { token: maintainer.token, query: { status: 'sideways' } });
    expect(badType.status).toBe(400);
  });
});
