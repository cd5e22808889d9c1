// The namespaces policy as a matrix: every kind of actor against every visibility, through the real API.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

type Role = 'anonymous' | 'non-member' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'admin';
const ROLES: Role[] = ['anonymous', 'non-member', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'];
const LEVEL: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };
const VISIBILITIES = ['private', 'internal', 'public'] as const;

const tokens: Partial<Record<Role, string>> = {};
const groups: Record<string, { id: number; full_path: string }> = {};
const projects: Record<string, { id: number; path: string; path_with_namespace: string }> = {};

beforeAll(async () => {
  const creator = await createUser();
  for (const vis of VISIBILITIES) {
    groups[vis] = await createGroup(creator.token, { visibility: vis, path: uniq(`m-${vis}`) });
    projects[vis] = await createProject(creator.token, { namespaceId: groups[vis].id, visibility: vis, path: uniq(`app-${vis}`) });
  }
  for (const role of ROLES) {
    if (role === 'anonymous') continue;
    if (role === 'admin') {
      tokens.admin = (await createUser({ admin: true })).token;
      continue;
    }
    const u = await createUser();
    tokens[role] = u.token;
    // Memberships on the group only: project access is inherited.
    if (LEVEL[role]) for (const vis of VISIBILITIES) await addGroupMember(creator.token, groups[vis].id, u.id, LEVEL[role]!);
  }
});

const member = (r: Role) => LEVEL[r] !== undefined;
const atLeast = (r: Role, level: number) => r === 'admin' || (LEVEL[r] ?? 0) >= level;
const expectRead = (r: Role, vis: string) => r === 'admin' || vis === 'public' || (vis === 'internal' && r !== 'anonymous') || member(r);

describe('[NAMESPACES] visibility and permission matrix', () => {
  for (const vis of VISIBILITIES) {
    for (const role of ROLES) {
      it(`${role} x ${vis}`, async () => {
        const token = tokens[role];
        const canRead = expectRead(role, vis);

        const project = await api('GET', `/projects/${encodeURIComponent(projects[vis].path_with_namespace)}`, { token });
        expect(project.status, 'read project').toBe(canRead ? 200 : 404);
        const group = await api('GET', `/groups/${groups[vis].id}`, { token });
        expect(group.status, 'read group').toBe(canRead ? 200 : 404);
        const listed = await api('GET', '/projects', { token, query: { search: projects[vis].path } });
        expect(listed.status).toBe(200);
        expect(
          listed.body.map((p: any) => p.id),
          'list projects',
        ).toEqual(canRead ? [projects[vis].id] : []);
        const listedGroups = await api('GET', '/groups', { token, query: { search: groups[vis].full_path, all_available: true, top_level_only: true } });
        expect(
          listedGroups.body.map((g: any) => g.id),
          'list groups',
        ).toEqual(canRead ? [groups[vis].id] : []);

        const members = await api('GET', `/projects/${projects[vis].id}/members/all`, { token });
        expect(members.status, 'list members').toBe(role === 'anonymous' ? 401 : canRead ? 200 : 404);

        if (role === 'anonymous') return;
        const newProject = await api('POST', '/projects', { token, json: { path: uniq('np'), namespace_id: groups[vis].id, visibility: 'private' } });
        expect(newProject.status, 'create project').toBe(atLeast(role, 30) ? 201 : 400);
        const newGroup = await api('POST', '/groups', { token, json: { name: 'Sub', path: uniq('sg'), parent_id: groups[vis].id } });
        expect(newGroup.status, 'create subgroup').toBe(atLeast(role, 40) ? 201 : canRead ? 403 : 404);
        const target = await createUser();
        const addMember = await api('POST', `/projects/${projects[vis].id}/members`, { token, json: { user_id: target.id, access_level: 20 } });
        expect(addMember.status, 'add member').toBe(atLeast(role, 40) ? 201 : canRead ? 403 : 404);
        const addOwner = await api('POST', `/groups/${groups[vis].id}/members`, { token, json: { user_id: target.id, access_level: 50 } });
        expect(addOwner.status, 'grant Owner').toBe(atLeast(role, 50) ? 201 : canRead ? 403 : 404);
      });
    }
  }

  it('admins see every project in GET /projects', async () => {
    for (const p of Object.values(projects)) {
      const asAdmin = await api('GET', '/projects', { token: rootToken(), query: { search: p.path } });
      expect(asAdmin.body.map((x: any) => x.id)).toEqual([p.id]);
    }
  });
});
