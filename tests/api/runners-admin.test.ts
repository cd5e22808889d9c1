// Runner administration endpoints one by one: details, update (pause/resume), delete, managers, projects,
// project and group runner lists, enabling/disabling in projects, and the unassign race.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { addManager, createRunner, dbQuery, DAY, HOUR, linkProject, setRunnerTimes } from './runners-admin-support';

const SUMMARY_KEYS = [
  'id',
  'description',
  'ip_address',
  'active',
  'paused',
  'is_shared',
  'runner_type',
  'name',
  'online',
  'created_by',
  'created_at',
  'status',
  'job_execution_status',
];
const DETAIL_KEYS = [
  ...SUMMARY_KEYS,
  'tag_list',
  'run_untagged',
  'locked',
  'maximum_timeout',
  'access_level',
  'version',
  'revision',
  'platform',
  'architecture',
  'contacted_at',
  'maintenance_note',
  'projects',
  'groups',
  // Runway extension (issue 33; GitLab serves it through GraphQL only), after GitLab's fields.
  'upgrade_status',
];

let maintainer: TestUser;
let groupOwner: TestUser;
let admin: TestUser;
let group: any;
let subgroup: any;
let project: any;
let project2: any;

describe('[RUNNERS] runner details, update and delete', () => {
  beforeAll(async () => {
    const root = rootToken();
    [maintainer, groupOwner, admin] = await Promise.all([createUser(), createUser(), createUser({ admin: true })]);
    group = await createGroup(root);
    subgroup = await createGroup(root, { parentId: group.id });
    project = await createProject(root, { namespaceId: group.id });
    project2 = await createProject(root, { namespaceId: subgroup.id });
    await addGroupMember(root, group.id, groupOwner.id, 50);
    await addProjectMember(root, project.id, maintainer.id, 40);
  });

  it('GET /runners/:id shows RunnerDetails in GitLab order, with projects, tags and the latest manager', async () => {
    const id = await createRunner('project_type', { projectId: project.id, tags: ['linux', 'docker'], maintenanceNote: 'secret note' });
    await addManager(id, { systemId: uniq('sys'), version: '17.0.0', contactedAgoMs: 5 * HOUR });
    await addManager(id, { systemId: uniq('sys'), version: '18.1.2', contactedAgoMs: 60_000 });
    await setRunnerTimes(id, { contactedAgoMs: 60_000 });
    const res = await api('GET', `/runners/${id}`, { token: maintainer.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(DETAIL_KEYS);
    expect(res.body).toMatchObject({
      id,
      ip_address: null,
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      online: true,
      status: 'online',
      job_execution_status: 'idle',
      tag_list: ['linux', 'docker'],
      run_untagged: true,
      locked: false,
      maximum_timeout: null,
      access_level: 'not_protected',
      version: '18.1.2',
      platform: 'linux',
      architecture: 'amd64',
      maintenance_note: 'secret note',
      groups: [],
    });
    expect(res.body.created_by.username).toBe('root');
    expect(res.body.projects.map((p: any) => p.id)).toEqual([project.id]);
    expect(res.body.projects[0].path_with_namespace).toBe(project.path_with_namespace);
    const noProjects = await api('GET', `/runners/${id}`, { token: maintainer.token, query: { include_projects: false } });
    expect(Object.keys(noProjects.body)).not.toContain('projects');
  });

  it('answers 404, 400 and hides maintenance_note from readers who cannot update', async () => {
    expect(await api('GET', '/runners/999999999', { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
    expect(await api('GET', '/runners/abc', { token: admin.token })).toMatchObject({ status: 400, body: { error: 'id is invalid' } });
    const gid = await createRunner('group_type', { groupId: group.id, maintenanceNote: 'owners only' });
    const groupMaintainer = await createUser();
    await addGroupMember(rootToken(), group.id, groupMaintainer.id, 40);
    const asMaintainer = await api('GET', `/runners/${gid}`, { token: groupMaintainer.token });
    expect(asMaintainer.status).toBe(200);
    expect(asMaintainer.body.maintenance_note).toBeNull();
    expect(asMaintainer.body.groups).toEqual([{ id: group.id, web_url: expect.stringContaining(`/groups/${group.full_path}`), name: group.name }]);
    expect((await api('GET', `/runners/${gid}`, { token: groupOwner.token })).body.maintenance_note).toBe('owners only');
  });

  it('a runner without creator has no created_by key; never-contacted runners have online null', async () => {
    const id = await createRunner('instance_type');
    await dbQuery('UPDATE ci_runners SET creator_id = NULL WHERE id = $1', [id]);
    const res = await api('GET', `/runners/${id}`, { token: maintainer.token });
    expect(Object.keys(res.body)).not.toContain('created_by');
    expect(res.body).toMatchObject({ online: null, status: 'never_contacted', is_shared: true, contacted_at: null, version: null });
  });

  it('PUT /runners/:id updates attributes, pauses and resumes, and returns RunnerDetails', async () => {
    const id = await createRunner('project_type', { projectId: project.id, tags: ['a'] });
    const res = await api('PUT', `/runners/${id}`, {
      token: maintainer.token,
      form: {
        description: 'renamed',
        tag_list: 'x, y',
        run_untagged: 'false',
        locked: 'true',
        access_level: 'ref_protected',
        maximum_timeout: '3600',
        maintenance_note: 'n',
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(DETAIL_KEYS);
    expect(res.body).toMatchObject({
      description: 'renamed',
      tag_list: ['x', 'y'],
      run_untagged: false,
      locked: true,
      access_level: 'ref_protected',
      maximum_timeout: 3600,
      maintenance_note: 'n',
    });
    const paused = await api('PUT', `/runners/${id}`, { token: maintainer.token, json: { paused: true } });
    expect(paused.body).toMatchObject({ paused: true, active: false });
    const resumed = await api('PUT', `/runners/${id}`, { token: maintainer.token, json: { active: true } });
    expect(resumed.body).toMatchObject({ paused: false, active: true });
    const row = (await dbQuery('SELECT active, description FROM ci_runners WHERE id = $1', [id]))[0];
    expect(row).toEqual({ active: true, description: 'renamed' });
  });

  it('PUT /runners/:id rejects bad input with GitLab bodies', async () => {
    const id = await createRunner('project_type', { projectId: project.id });
    const put = (json: unknown) => api('PUT', `/runners/${id}`, { token: maintainer.token, json });
    expect(await put({})).toMatchObject({
      status: 400,
      body: {
        error:
          'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
      },
    });
    expect(await put({ active: true, paused: true })).toMatchObject({ status: 400, body: { error: 'active, paused are mutually exclusive' } });
    expect(await put({ access_level: 'bogus' })).toMatchObject({ status: 400, body: { error: 'access_level does not have a valid value' } });
    expect(await put({ maximum_timeout: 599 })).toMatchObject({ status: 400, body: { message: { maximum_timeout: ['needs to be at least 10 minutes'] } } });
    expect(await put({ run_untagged: false })).toMatchObject({
      status: 400,
      body: { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
    });
    const tags = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(await put({ tag_list: tags })).toMatchObject({
      status: 400,
      body: { message: { tags_list: ['Too many tags specified. Please limit the number of tags to 50'] } },
    });
    expect(await put({ maintenance_note: 'x'.repeat(1025) })).toMatchObject({
      status: 400,
      body: { message: { maintenance_note: ['is too long (maximum is 1024 characters)'] } },
    });
    expect(await api('PUT', '/runners/999999999', { token: admin.token, json: { description: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Runner Not Found' },
    });
    // Nothing was written by the failed requests.
    expect((await api('GET', `/runners/${id}`, { token: maintainer.token })).body).toMatchObject({ maximum_timeout: null, run_untagged: true, tag_list: [] });
  });

  it('DELETE /runners/:id honours If-Unmodified-Since, answers 204 and removes the runner', async () => {
    const id = await createRunner('project_type', { projectId: project.id });
    const stale = await api('DELETE', `/runners/${id}`, {
      token: maintainer.token,
      headers: { 'If-Unmodified-Since': new Date(Date.now() - DAY).toUTCString() },
    });
    expect(stale).toMatchObject({ status: 412, body: { message: '412 Precondition Failed' } });
    const res = await api('DELETE', `/runners/${id}`, {
      token: maintainer.token,
      headers: { 'If-Unmodified-Since': new Date(Date.now() + DAY).toUTCString() },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await api('GET', `/runners/${id}`, { token: admin.token })).toMatchObject({ status: 404 });
    expect(await dbQuery('SELECT 1 FROM ci_runner_projects WHERE runner_id = $1', [id])).toEqual([]);
    expect(await api('DELETE', `/runners/${id}`, { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
  });

  it('a parent-group owner deletes a subgroup runner', async () => {
    const id = await createRunner('group_type', { groupId: subgroup.id });
    expect((await api('DELETE', `/runners/${id}`, { token: groupOwner.token })).status).toBe(204);
  });

  it('GET /runners/:id/managers lists managers (not paginated) in RunnerManager order', async () => {
    const id = await createRunner('group_type', { groupId: group.id });
    expect((await api('GET', `/runners/${id}/managers`, { token: groupOwner.token })).body).toEqual([]);
    const a = await addManager(id, { systemId: 's_aaaaaaaaaaaa', version: '18.0.0', contactedAgoMs: 60_000 });
    const b = await addManager(id, { systemId: 's_bbbbbbbbbbbb', version: '17.9.0', contactedAgoMs: null, finished: false });
    await dbQuery(`INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, updated_at) VALUES (1000, $1, repeat('a', 40), 'main', 'running', now())`, [
      project.id,
    ]);
    await dbQuery(
      `INSERT INTO ci_builds (runner_id, runner_manager_id, project_id, pipeline_id, status, stage, name, ref)
                   SELECT $1, $2, $3, id, 'running', 'test', 'j', 'main' FROM ci_pipelines WHERE project_id = $3 AND iid = 1000`,
      [id, a, project.id],
    );
    const res = await api('GET', `/runners/${id}/managers`, { token: groupOwner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.body.map((m: any) => m.id)).toEqual([a, b]);
    expect(Object.keys(res.body[0])).toEqual([
      'id',
      'system_id',
      'version',
      'revision',
      'platform',
      'architecture',
      'created_at',
      'contacted_at',
      'ip_address',
      'status',
      'job_execution_status',
      // Runway extension (issue 33), after GitLab's fields.
      'upgrade_status',
    ]);
    expect(res.body[0]).toMatchObject({
      system_id: 's_aaaaaaaaaaaa',
      version: '18.0.0',
      status: 'online',
      job_execution_status: 'active',
      ip_address: '10.0.0.1',
    });
    expect(res.body[1]).toMatchObject({ status: 'never_contacted', job_execution_status: 'idle', contacted_at: null });
    expect((await api('GET', `/runners/${id}`, { token: groupOwner.token })).body.job_execution_status).toBe('active');
    expect(await api('GET', '/runners/999999999/managers', { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
  });

  it('GET /runners/:id/projects pages the projects the reader can see (id descending)', async () => {
    const id = await createRunner('project_type', { projectId: project.id });
    await linkProject(id, project2.id);
    const all = await api('GET', `/runners/${id}/projects`, { token: admin.token, query: { per_page: 1 } });
    expect(all.status).toBe(200);
    expect(all.body.map((p: any) => p.id)).toEqual([project2.id]);
    expect(all.headers.get('x-total')).toBe('2');
    expect(all.headers.get('x-next-page')).toBe('2');
    expect(all.headers.get('link')).toContain('rel="next"');
    const mine = await api('GET', `/runners/${id}/projects`, { token: maintainer.token });
    expect(mine.body.map((p: any) => p.id)).toEqual([project.id]);
    const inst = await createRunner('instance_type');
    expect((await api('GET', `/runners/${inst}/projects`, { token: maintainer.token })).body).toEqual([]);
  });
});

describe('[RUNNERS] project and group runners', () => {
  let owner: TestUser;
  let g: any;
  let sub: any;
  let p: any;
  let q: any;
  let instanceId: number;
  let groupRunner: number;
  let subRunner: number;
  let projectRunner: number;

  beforeAll(async () => {
    const root = rootToken();
    owner = await createUser();
    admin ??= await createUser({ admin: true });
    g = await createGroup(root);
    sub = await createGroup(root, { parentId: g.id });
    await addGroupMember(root, g.id, owner.id, 50);
    p = await createProject(root, { namespaceId: sub.id });
    q = await createProject(root, { namespaceId: g.id });
    instanceId = await createRunner('instance_type');
    groupRunner = await createRunner('group_type', { groupId: g.id });
    subRunner = await createRunner('group_type', { groupId: sub.id });
    projectRunner = await createRunner('project_type', { projectId: p.id });
  });

  it('GET /projects/:id/runners lists own, ancestor-group and instance runners by id', async () => {
    const res = await api('GET', `/projects/${p.id}/runners`, { token: owner.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const ids = res.body.map((r: any) => r.id);
    expect(ids).toEqual(expect.arrayContaining([instanceId, groupRunner, subRunner, projectRunner]));
    expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
    expect(Object.keys(res.body.find((r: any) => r.id === projectRunner))).toEqual(SUMMARY_KEYS);
    const onlyProject = await api('GET', `/projects/${p.id}/runners`, { token: owner.token, query: { type: 'project_type' } });
    expect(onlyProject.body.map((r: any) => r.id)).toEqual([projectRunner]);
    const byPath = await api('GET', `/projects/${encodeURIComponent(p.path_with_namespace)}/runners/all`, {
      token: owner.token,
      query: { scope: 'specific', per_page: 100 },
    });
    expect(byPath.body.map((r: any) => r.id)).toEqual(expect.arrayContaining([groupRunner, subRunner, projectRunner]));
    expect(byPath.body.map((r: any) => r.id)).not.toContain(instanceId);
    await dbQuery('UPDATE projects SET shared_runners_enabled = false, group_runners_enabled = false WHERE id = $1', [q.id]);
    const qRunners = await api('GET', `/projects/${q.id}/runners`, { token: owner.token });
    expect(qRunners.body).toEqual([]);
    expect(await api('GET', `/projects/${p.id}/runners`, { token: owner.token, query: { scope: 'bogus' } })).toMatchObject({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
  });

  it('GET /groups/:id/runners lists the group and ancestor runners, not descendants', async () => {
    const top = await api('GET', `/groups/${g.id}/runners`, { token: owner.token, query: { per_page: 100 } });
    expect(top.status).toBe(200);
    expect(top.body.map((r: any) => r.id)).toContain(groupRunner);
    expect(top.body.map((r: any) => r.id)).not.toContain(subRunner);
    const child = await api('GET', `/groups/${sub.id}/runners/all`, { token: owner.token, query: { type: 'group_type' } });
    expect(child.body.map((r: any) => r.id)).toEqual([groupRunner, subRunner]);
    expect((await api('GET', `/groups/${g.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body).toEqual([]);
    expect(await api('GET', `/groups/${g.id}/runners`, { token: owner.token, query: { type: 'bogus' } })).toMatchObject({
      status: 400,
      body: { error: 'type does not have a valid value' },
    });
    expect(await api('GET', '/groups/999999999/runners', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('POST /projects/:id/runners enables a project runner (201 Runner) and refuses the rest', async () => {
    const res = await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: projectRunner } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(SUMMARY_KEYS);
    expect(res.body.id).toBe(projectRunner);
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: projectRunner } })).toMatchObject({ status: 400 });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: groupRunner } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner is a group runner' },
    });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: admin.token, json: { runner_id: groupRunner } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner is a group runner' },
    });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: instanceId } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - No access granted' },
    });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: {} })).toMatchObject({
      status: 400,
      body: { error: 'runner_id is missing' },
    });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: 999999999 } })).toMatchObject({
      status: 404,
      body: { message: '404 Runner Not Found' },
    });
    const locked = await createRunner('project_type', { projectId: p.id, locked: true });
    expect(await api('POST', `/projects/${q.id}/runners`, { token: owner.token, json: { runner_id: locked } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner is locked' },
    });
    expect((await api('POST', `/projects/${q.id}/runners`, { token: admin.token, json: { runner_id: locked } })).status).toBe(201);
    const projects = (await api('GET', `/runners/${projectRunner}`, { token: owner.token })).body.projects.map((x: any) => x.id);
    expect(projects).toEqual([p.id, q.id]);
  });

  it('DELETE /projects/:id/runners/:runner_id disables a runner except in its owner project', async () => {
    const id = await createRunner('project_type', { projectId: p.id });
    await linkProject(id, q.id);
    expect(await api('DELETE', `/projects/${p.id}/runners/${id}`, { token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - No access granted' },
    });
    expect(await api('DELETE', `/projects/${p.id}/runners/${id}`, { token: admin.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead' },
    });
    expect(await api('DELETE', `/projects/${q.id}/runners/${instanceId}`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Runner Not Found' },
    });
    const res = await api('DELETE', `/projects/${q.id}/runners/${id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(await dbQuery('SELECT project_id FROM ci_runner_projects WHERE runner_id = $1', [id])).toEqual([{ project_id: p.id }]);
    const locked = await createRunner('project_type', { projectId: p.id, locked: true });
    await linkProject(locked, q.id);
    expect(await api('DELETE', `/projects/${q.id}/runners/${locked}`, { token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner is locked' },
    });
    expect((await api('DELETE', `/projects/${q.id}/runners/${locked}`, { token: admin.token })).status).toBe(204);
  });

  it('two racing unassigns never leave a project runner without a project', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await createRunner('project_type', { projectId: p.id });
      const extra = await createProject(rootToken(), { namespaceId: g.id });
      await linkProject(id, q.id);
      await linkProject(id, extra.id);
      // The owner project is gone: the earliest remaining link (q) becomes the owner, as in GitLab.
      await dbQuery('DELETE FROM ci_runner_projects WHERE runner_id = $1 AND project_id = $2', [id, p.id]);
      await dbQuery('UPDATE ci_runners SET owner_project_id = NULL WHERE id = $1', [id]);
      const results = await Promise.all([
        api('DELETE', `/projects/${q.id}/runners/${id}`, { token: admin.token }),
        api('DELETE', `/projects/${extra.id}/runners/${id}`, { token: admin.token }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([204, 403]);
      const left = await dbQuery('SELECT project_id FROM ci_runner_projects WHERE runner_id = $1', [id]);
      expect(left).toEqual([{ project_id: q.id }]);
    }
  });

  it('concurrent unassigns of two non-owner projects both succeed and keep the owner', async () => {
    const id = await createRunner('project_type', { projectId: p.id });
    const extra = await createProject(rootToken(), { namespaceId: g.id });
    await linkProject(id, q.id);
    await linkProject(id, extra.id);
    const results = await Promise.all([
      api('DELETE', `/projects/${q.id}/runners/${id}`, { token: owner.token }),
      api('DELETE', `/projects/${extra.id}/runners/${id}`, { token: owner.token }),
    ]);
    expect(results.map((r) => r.status)).toEqual([204, 204]);
    expect(await dbQuery('SELECT project_id FROM ci_runner_projects WHERE runner_id = $1', [id])).toEqual([{ project_id: p.id }]);
  });
});

describe('[RUNNERS] GET /runners (owned)', () => {
  it('lists project runners of Maintainer+ projects and group runners of Owner groups (with descendants), never instance runners', async () => {
    const root = rootToken();
    const user = await createUser();
    const g = await createGroup(root);
    const sub = await createGroup(root, { parentId: g.id });
    const other = await createGroup(root);
    await addGroupMember(root, g.id, user.id, 50);
    await addGroupMember(root, other.id, user.id, 40);
    const mine = await createProject(root, { namespaceId: other.id });
    const guestProject = await createProject(root);
    await addProjectMember(root, guestProject.id, user.id, 10);
    const a = await createRunner('group_type', { groupId: g.id });
    const b = await createRunner('group_type', { groupId: sub.id });
    const notOwned = await createRunner('group_type', { groupId: other.id });
    const pr = await createRunner('project_type', { projectId: mine.id });
    const hidden = await createRunner('project_type', { projectId: guestProject.id });
    await createRunner('instance_type');
    const res = await api('GET', '/runners', { token: user.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([a, b, pr]);
    expect(res.body.map((r: any) => r.id)).not.toContain(notOwned);
    expect(res.body.map((r: any) => r.id)).not.toContain(hidden);
    expect(res.headers.get('x-total')).toBe('3');
    expect((await api('GET', '/runners', { token: user.token, query: { type: 'project_type' } })).body.map((r: any) => r.id)).toEqual([pr]);
    expect(await api('GET', '/runners', { token: user.token, query: { scope: 'shared' } })).toMatchObject({
      status: 400,
      body: { message: 'Scope contains invalid value' },
    });
    expect(await api('GET', '/runners', { token: user.token, query: { scope: 'project_type' } })).toMatchObject({
      status: 400,
      body: { message: 'Scope contains invalid value' },
    });
    expect((await api('GET', '/runners', { token: user.token, query: { scope: 'never_contacted' } })).body).toHaveLength(3);
    expect(await api('GET', '/runners')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});
