import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { inspect } from '../support/inspect';
import { createUser } from '../support/users';

const MEMBER_KEYS = [
  'id',
  'username',
  'public_email',
  'name',
  'state',
  'locked',
  'avatar_url',
  'web_url',
  'access_level',
  'created_at',
  'created_by',
  'expires_at',
];
const FORBIDDEN = { message: '403 Forbidden' };
// The embedded database serves one transaction at a time (a pool of one connection), so there the demotions
// only ever run in one of their two orders: fewer trials show both.
const OWNER_RACE_TRIALS = process.env.DATABASE_URL ? 200 : 40;

async function groupOwners(groupId: number): Promise<number[]> {
  const res = await api('GET', `/groups/${groupId}/members`, { token: rootToken(), query: { per_page: 100 } });
  return res.body.filter((m: any) => m.access_level === 50).map((m: any) => m.id);
}

describe('[NAMESPACES] PUT and DELETE members', () => {
  it("updates a project member's access level and expiry, and removes the member with 204", async () => {
    const owner = await createUser();
    const dev = await createUser();
    const project = await createProject(owner.token);
    await addProjectMember(owner.token, project.id, dev.id, 30);
    const path = `/projects/${project.id}/members/${dev.id}`;

    const res = await api('PUT', path, { token: owner.token, json: { access_level: 40, expires_at: '2999-12-31' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(MEMBER_KEYS);
    expect(res.body).toMatchObject({ id: dev.id, access_level: 40, expires_at: '2999-12-31' });
    expect((await api('GET', path, { token: owner.token })).body).toMatchObject({ access_level: 40, expires_at: '2999-12-31' });
    // An empty expires_at clears the expiry; the level is required.
    const cleared = await api('PUT', path, { token: owner.token, form: { access_level: '20', expires_at: '' } });
    expect(cleared.body).toMatchObject({ access_level: 20, expires_at: null });
    const missing = await api('PUT', path, { token: owner.token, json: { expires_at: '2999-01-01' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'access_level is missing, access_level does not have a valid value' });
    const badLevel = await api('PUT', path, { token: owner.token, json: { access_level: 35 } });
    expect(badLevel.body).toEqual({ error: 'access_level does not have a valid value' });
    const past = await api('PUT', path, { token: owner.token, json: { access_level: 20, expires_at: '2000-01-01' } });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    const badId = await api('PUT', `/projects/${project.id}/members/abc`, { token: owner.token, json: { access_level: 20 } });
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({ error: 'user_id is invalid' });
    const nobody = await api('PUT', `/projects/${project.id}/members/999999999`, { token: owner.token, json: { access_level: 20 } });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ message: '404 Not found' });

    const del = await api('DELETE', path, { token: owner.token, query: { skip_subresources: true, unassign_issuables: true } });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const again = await api('DELETE', path, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Not found' });
    expect((await api('GET', `/projects/${project.id}`, { token: dev.token })).status).toBe(404);
  });

  it("applies GitLab's project rules: Maintainers manage members but not Owners; a member may leave", async () => {
    const owner = await createUser();
    const maintainer = await createUser();
    const dev = await createUser();
    const coOwner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    await addProjectMember(owner.token, project.id, maintainer.id, 40);
    await addProjectMember(owner.token, project.id, dev.id, 30);
    await addProjectMember(owner.token, project.id, coOwner.id, 50);
    const member = (u: { id: number }) => `/projects/${project.id}/members/${u.id}`;

    // A Developer may not manage members (403 before the member is even looked up).
    expect(await api('PUT', member(maintainer), { token: dev.token, json: { access_level: 10 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await api('PUT', `/projects/${project.id}/members/999999999`, { token: dev.token, json: { access_level: 10 } })).status).toBe(403);
    expect(await api('DELETE', member(maintainer), { token: dev.token })).toMatchObject({ status: 403, body: FORBIDDEN });
    // A Maintainer may change a Developer, but may neither grant Owner nor touch an Owner.
    expect((await api('PUT', member(dev), { token: maintainer.token, json: { access_level: 20 } })).status).toBe(200);
    expect(await api('PUT', member(dev), { token: maintainer.token, json: { access_level: 50 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('PUT', member(coOwner), { token: maintainer.token, json: { access_level: 40 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('DELETE', member(coOwner), { token: maintainer.token })).toMatchObject({ status: 403, body: FORBIDDEN });
    // An Owner may; a member may leave on their own.
    expect((await api('PUT', member(coOwner), { token: owner.token, json: { access_level: 40 } })).body.access_level).toBe(40);
    expect((await api('DELETE', member(dev), { token: dev.token })).status).toBe(204);
    // A direct membership may not go below the level inherited from the group.
    await addGroupMember(owner.token, group.id, maintainer.id, 30);
    const lower = await api('PUT', member(maintainer), { token: owner.token, json: { access_level: 20 } });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({ message: { access_level: [`should be greater than or equal to Developer inherited membership from group ${group.name}`] } });
    // Outsiders do not see a private project at all.
    const outsider = await createUser();
    expect(await api('DELETE', member(maintainer), { token: outsider.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await api('DELETE', member(maintainer))).status).toBe(401);
  });

  it('keeps the personal namespace holder in their project', async () => {
    const holder = await createUser();
    const project = await createProject(holder.token);
    const asAdmin = await api('PUT', `/projects/${project.id}/members/${holder.id}`, { token: rootToken(), json: { access_level: 30 } });
    expect(asAdmin).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await api('DELETE', `/projects/${project.id}/members/${holder.id}`, { token: holder.token })).status).toBe(403);
  });

  it("applies GitLab's group rules: only Owners manage members; the last owner can be neither demoted nor removed", async () => {
    const owner = await createUser();
    const maintainer = await createUser();
    const second = await createUser();
    const group = await createGroup(owner.token);
    await addGroupMember(owner.token, group.id, maintainer.id, 40);
    const member = (u: { id: number }) => `/groups/${group.id}/members/${u.id}`;

    // Group members are an Owner's business (admin_group_member): a Maintainer may not even add one.
    expect(await api('PUT', member(owner), { token: maintainer.token, json: { access_level: 30 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('POST', `/groups/${group.id}/members`, { token: maintainer.token, json: { user_id: second.id, access_level: 10 } })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await api('DELETE', member(owner), { token: maintainer.token })).toMatchObject({ status: 403, body: FORBIDDEN });

    // The last owner: not by themselves, not by an admin.
    expect(await api('PUT', member(owner), { token: owner.token, json: { access_level: 40 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('PUT', member(owner), { token: rootToken(), json: { access_level: 40 } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('DELETE', member(owner), { token: owner.token })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api('DELETE', member(owner), { token: rootToken() })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await groupOwners(group.id)).toEqual([owner.id]);

    // With a second owner, either may step down.
    await addGroupMember(owner.token, group.id, second.id, 50);
    expect((await api('PUT', member(owner), { token: owner.token, json: { access_level: 40 } })).body.access_level).toBe(40);
    expect(await api('DELETE', member(second), { token: second.token })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await groupOwners(group.id)).toEqual([second.id]);
    // A member (not an owner) may leave the group.
    expect((await api('DELETE', member(maintainer), { token: maintainer.token })).status).toBe(204);
  });

  it("counts ancestor owners for a subgroup's last owner; removing a group member removes their memberships below unless skip_subresources", async () => {
    const owner = await createUser();
    const alice = await createUser();
    const bob = await createUser();
    const top = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: top.id });
    const project = await createProject(owner.token, { namespaceId: sub.id });
    // The subgroup's creator is its direct owner; the top group's owner still owns it by inheritance.
    await addGroupMember(owner.token, sub.id, alice.id, 50);
    expect((await api('DELETE', `/groups/${sub.id}/members/${owner.id}`, { token: owner.token })).status).toBe(204);
    expect((await api('DELETE', `/groups/${sub.id}/members/${alice.id}`, { token: owner.token })).status).toBe(204);

    for (const u of [alice, bob]) await addGroupMember(owner.token, top.id, u.id, 20);
    for (const u of [alice, bob]) {
      await addGroupMember(owner.token, sub.id, u.id, 30);
      await addProjectMember(owner.token, project.id, u.id, 40);
    }
    expect((await api('DELETE', `/groups/${top.id}/members/${alice.id}`, { token: owner.token })).status).toBe(204);
    expect((await api('GET', `/groups/${sub.id}/members/${alice.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', `/projects/${project.id}/members/${alice.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('DELETE', `/groups/${top.id}/members/${bob.id}`, { token: owner.token, query: { skip_subresources: 'true' } })).status).toBe(204);
    expect((await api('GET', `/groups/${sub.id}/members/${bob.id}`, { token: owner.token })).body.access_level).toBe(30);
    expect((await api('GET', `/projects/${project.id}/members/${bob.id}`, { token: owner.token })).body.access_level).toBe(40);
  });

  it('unassigns the removed member from merge requests only with unassign_issuables', async () => {
    const owner = await createUser();
    const kept = await createUser();
    const dropped = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    for (const u of [kept, dropped]) await addGroupMember(owner.token, group.id, u.id, 30);
    const [mr] = await inspect<{ id: number }>(
      `INSERT INTO merge_requests (iid, target_project_id, source_project_id, title, source_branch, target_branch, author_id)
       VALUES (1, $1, $1, 'assigned', 'a', 'main', $2) RETURNING id`,
      [project.id, owner.id],
    );
    await inspect('INSERT INTO merge_request_assignees (merge_request_id, user_id) VALUES ($1, $2), ($1, $3)', [mr.id, kept.id, dropped.id]);
    expect((await api('DELETE', `/groups/${group.id}/members/${kept.id}`, { token: owner.token })).status).toBe(204);
    expect((await api('DELETE', `/groups/${group.id}/members/${dropped.id}`, { token: owner.token, query: { unassign_issuables: true } })).status).toBe(204);
    const left = await inspect<{ user_id: number }>('SELECT user_id FROM merge_request_assignees WHERE merge_request_id = $1', [mr.id]);
    expect(left.map((r) => r.user_id)).toEqual([kept.id]);
  });

  it(`never leaves a group without an owner when its last two owners demote each other concurrently (${OWNER_RACE_TRIALS} trials)`, async () => {
    const a = await createUser();
    const b = await createUser();
    let notExactlyOneWinner = 0;
    for (let trial = 0; trial < OWNER_RACE_TRIALS; trial++) {
      const group = await createGroup(a.token);
      await addGroupMember(a.token, group.id, b.id, 50);
      // Even trials: each owner demotes the other. Odd trials: an admin demotes one and removes the other.
      const byAdmin = trial % 2 === 1;
      const [ra, rb] = await Promise.all([
        api('PUT', `/groups/${group.id}/members/${b.id}`, { token: byAdmin ? rootToken() : a.token, json: { access_level: 40 } }),
        byAdmin
          ? api('DELETE', `/groups/${group.id}/members/${a.id}`, { token: rootToken() })
          : api('PUT', `/groups/${group.id}/members/${a.id}`, { token: b.token, json: { access_level: 40 } }),
      ]);
      // Exactly one wins; the loser is refused as GitLab refuses a change to the last owner.
      const wins = [ra, rb].filter((r) => r.status === 200 || r.status === 204).length;
      if (wins !== 1) notExactlyOneWinner++;
      expect([ra, rb].filter((r) => r.status === 403).length, `${ra.status} ${ra.text} / ${rb.status} ${rb.text}`).toBe(1);
      expect((await groupOwners(group.id)).length).toBe(1);
    }
    expect(notExactlyOneWinner).toBe(0);
  }, 240_000);

  it('holds the owner rule in the database too: a direct write that would leave a top-level group without an owner fails', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const client = new pg.Client({ connectionString: inject('inspectUrl') });
    await client.connect();
    try {
      await expect(client.query('UPDATE group_members SET access_level = 40 WHERE group_id = $1', [group.id])).rejects.toThrow(/without an owner/);
      await expect(client.query('DELETE FROM group_members WHERE group_id = $1', [group.id])).rejects.toThrow(/without an owner/);
      // Deleting the group itself takes its memberships along.
      await client.query('DELETE FROM namespaces WHERE id = $1', [group.id]);
    } finally {
      await client.end();
    }
    expect((await api('GET', `/groups/${group.id}`, { token: rootToken() })).status).toBe(404);
  });
});
