// The creator filter of the runner lists (Runway extension `creator_username`; GitLab's runner list filters
// by creator through GraphQL `creatorUsername` only): runners the user created, on /runners/all, /runners,
// /groups/:id/runners and the list counts, with GitLab-shaped 400s for a value that cannot be a username.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner } from './runners-admin-support';

describe('[RUNNERS] creator filter', () => {
  const tag = uniq('creator');
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let group: any;
  const r: Record<string, number> = {};
  const list = (path: string, token: string, query: Record<string, string | number>) =>
    api('GET', path, { token, query: { tag_list: tag, per_page: 100, ...query } });
  const ids = (res: { body: any[] }) => res.body.map((x) => x.id).sort((a: number, b: number) => a - b);

  beforeAll(async () => {
    [admin, owner, other] = await Promise.all([createUser({ admin: true }), createUser(), createUser()]);
    group = await createGroup(rootToken());
    await addGroupMember(rootToken(), group.id, owner.id, 50);
    await addGroupMember(rootToken(), group.id, other.id, 50);
    r.byOwner = await createRunner('group_type', { groupId: group.id, tags: [tag], token: owner.token });
    r.byOther = await createRunner('group_type', { groupId: group.id, tags: [tag], token: other.token });
    r.byRoot = await createRunner('instance_type', { tags: [tag] });
  });

  it('filters /runners/all by the creator, case-insensitively, and an unknown user matches nothing', async () => {
    expect(ids(await list('/runners/all', admin.token, { creator_username: owner.username }))).toEqual([r.byOwner]);
    expect(ids(await list('/runners/all', admin.token, { creator_username: other.username.toUpperCase() }))).toEqual([r.byOther]);
    expect(ids(await list('/runners/all', admin.token, { creator_username: 'root' }))).toEqual([r.byRoot]);
    expect(ids(await list('/runners/all', admin.token, { creator_username: uniq('nobody') }))).toEqual([]);
    expect(ids(await list('/runners/all', admin.token, { creator_username: owner.username, type: 'instance_type' }))).toEqual([]);
    const counted = await list('/runners/all', admin.token, { creator_username: owner.username, per_page: 1 });
    expect(counted.headers.get('x-total')).toBe('1');
    expect(counted.headers.get('link')).toContain(`creator_username=${owner.username}`);
  });

  it('filters /runners and /groups/:id/runners, and the counts follow', async () => {
    expect(ids(await list('/runners', owner.token, { creator_username: other.username }))).toEqual([r.byOther]);
    expect(ids(await list(`/groups/${group.id}/runners`, owner.token, { creator_username: other.username }))).toEqual([r.byOther]);
    expect(ids(await list(`/groups/${group.id}/runners`, owner.token, { creator_username: owner.username, membership: 'descendants' }))).toEqual([r.byOwner]);
    const counts = await list('/runners/all/counts', admin.token, { creator_username: owner.username });
    expect(counts.status).toBe(200);
    expect(counts.body.runner_type.all).toBe(1);
    expect(counts.body.runner_type.group_type).toBe(1);
    expect(counts.body.runner_type.instance_type).toBe(0);
  });

  it('answers GitLab-shaped 400s for a value that cannot be a username', async () => {
    for (const path of ['/runners/all', '/runners', `/groups/${group.id}/runners`]) {
      for (const bad of ['-dash', 'a b', '%']) {
        const res = await list(path, admin.token, { creator_username: bad });
        expect(res.status, `${path} ${bad}`).toBe(400);
        expect(res.body).toEqual({ error: 'creator_username is invalid' });
      }
    }
  });
});
