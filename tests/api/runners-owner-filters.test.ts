// The owner filters of GET /runners/all and GET /runners (Runway extension): owner_group_id (group runners
// of that group, not its subgroups) and owner_project_id (project runners whose owner is that project,
// including a runner re-owned by its earliest remaining project after its owner was deleted).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner, linkProject } from './runners-admin-support';

describe('[RUNNERS] owner filters', () => {
  const tag = uniq('owner');
  let admin: TestUser;
  let owner: TestUser;
  let outsider: TestUser;
  let group: any;
  let sub: any;
  let project: any;
  let other: any;
  const r: Record<string, number> = {};
  const list = (path: string, token: string, query: Record<string, string | number>) =>
    api('GET', path, { token, query: { tag_list: tag, per_page: 100, ...query } });
  const ids = (res: { body: any[] }) => res.body.map((x) => x.id);

  beforeAll(async () => {
    [admin, owner, outsider] = await Promise.all([createUser({ admin: true }), createUser(), createUser()]);
    group = await createGroup(rootToken());
    sub = await createGroup(rootToken(), { parentId: group.id });
    project = await createProject(rootToken(), { namespaceId: group.id });
    other = await createProject(rootToken(), { namespaceId: group.id });
    await addGroupMember(rootToken(), group.id, owner.id, 50);
    r.group = await createRunner('group_type', { groupId: group.id, tags: [tag] });
    r.sub = await createRunner('group_type', { groupId: sub.id, tags: [tag] });
    r.project = await createRunner('project_type', { projectId: project.id, tags: [tag] });
    // Owned by `other`, also enabled in `project`: not `project`'s own runner until `other` is deleted.
    r.shared = await createRunner('project_type', { projectId: other.id, tags: [tag] });
    await linkProject(r.shared, project.id);
    r.instance = await createRunner('instance_type', { tags: [tag] });
  });

  it('filters /runners/all by the owning group or project', async () => {
    expect(ids(await list('/runners/all', admin.token, { owner_group_id: group.id }))).toEqual([r.group]);
    expect(ids(await list('/runners/all', admin.token, { owner_group_id: sub.id }))).toEqual([r.sub]);
    expect(ids(await list('/runners/all', admin.token, { owner_project_id: project.id }))).toEqual([r.project]);
    expect(ids(await list('/runners/all', admin.token, { owner_project_id: other.id }))).toEqual([r.shared]);
    expect(ids(await list('/runners/all', admin.token, { owner_group_id: group.id, type: 'project_type' }))).toEqual([]);
    const counted = await list('/runners/all', admin.token, { owner_group_id: group.id, per_page: 1 });
    expect(counted.headers.get('x-total')).toBe('1');
    expect(counted.headers.get('link')).toContain(`owner_group_id=${group.id}`);
    expect(ids(await list('/runners/all', admin.token, { owner_group_id: 999_999_999 }))).toEqual([]);
  });

  it('narrows /runners to the caller own runners, never widening it', async () => {
    expect(ids(await list('/runners', owner.token, { owner_group_id: group.id }))).toEqual([r.group]);
    expect(ids(await list('/runners', outsider.token, { owner_group_id: group.id }))).toEqual([]);
    expect(ids(await list('/runners', outsider.token, { owner_project_id: project.id }))).toEqual([]);
  });

  it('follows the owner to the earliest remaining project when the owner project is deleted', async () => {
    expect((await api('DELETE', `/projects/${other.id}`, { token: rootToken() })).status).toBe(202);
    expect(ids(await list('/runners/all', admin.token, { owner_project_id: project.id }))).toEqual([r.project, r.shared]);
  });

  it('answers GitLab-shaped 400s for bad owner filters', async () => {
    for (const path of ['/runners/all', '/runners']) {
      const bad = await list(path, admin.token, { owner_group_id: 'abc' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'owner_group_id is invalid' });
      const both = await list(path, admin.token, { owner_group_id: group.id, owner_project_id: project.id });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ error: 'owner_group_id, owner_project_id are mutually exclusive' });
    }
  });
});
