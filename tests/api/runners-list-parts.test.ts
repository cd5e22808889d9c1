// The list statements that page and count a set part by part (a project's links, its groups' runners, the
// caller's owned groups and projects) and the single-tag form: every page, in every order, must be the
// matching slice of the whole list, with no runner twice or missing, and X-Total must count them all.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { rootToken } from '../support/api';
import { createRunner, DAY, setRunnerTimes } from './runners-admin-support';

// The owner of the top group, so Maintainer+ (inherited) of the project too.
const OWNER = 50;

let owner: TestUser;
let admin: TestUser;
let group: any;
let subgroup: any;
let project: any;
const expected: { id: number; createdAgoDays: number }[] = [];
const tag = uniq('parts');

/** Every page of a list at `perPage`, with the X-Total each page answered. */
async function allPages(path: string, token: string, query: Record<string, string | number>, perPage: number) {
  const seen: number[] = [];
  const totals = new Set<string | null>();
  for (let page = 1; page <= 20; page++) {
    const res = await api('GET', path, { token, query: { ...query, per_page: perPage, page } });
    expect(res.status).toBe(200);
    totals.add(res.headers.get('x-total'));
    if (!res.body.length) break;
    seen.push(...res.body.map((r: { id: number }) => r.id));
  }
  return { seen, totals };
}

const byId = (dir: 'asc' | 'desc') => [...expected].sort((a, b) => (dir === 'asc' ? a.id - b.id : b.id - a.id)).map((r) => r.id);
// created_at descending, ties (none here) by id descending, as the list orders them.
const byCreatedDesc = () => [...expected].sort((a, b) => a.createdAgoDays - b.createdAgoDays || b.id - a.id).map((r) => r.id);

describe('[RUNNERS] lists paged and counted part by part', () => {
  beforeAll(async () => {
    owner = await createUser();
    admin = await createUser({ admin: true });
    group = await createGroup(rootToken());
    subgroup = await createGroup(rootToken(), { parentId: group.id });
    project = await createProject(rootToken(), { namespaceId: subgroup.id });
    await addGroupMember(rootToken(), group.id, owner.id, OWNER);
    // No instance runners in this project's list, so the set is exactly what this test creates.
    const off = await api('PUT', `/projects/${project.id}`, { token: rootToken(), json: { shared_runners_enabled: false } });
    expect(off.status).toBe(200);
    // Interleave the kinds so every page mixes parts, and spread created_at across them.
    const kinds = ['group', 'project', 'subgroup', 'project', 'group', 'subgroup', 'project'] as const;
    for (const [i, kind] of kinds.entries()) {
      const id =
        kind === 'project'
          ? await createRunner('project_type', { projectId: project.id, tags: [tag] })
          : await createRunner('group_type', { groupId: kind === 'group' ? group.id : subgroup.id, tags: [tag] });
      const createdAgoDays = (i * 5) % 7;
      await setRunnerTimes(id, { createdAgoMs: createdAgoDays * DAY + i * 1000 });
      expected.push({ id, createdAgoDays: createdAgoDays + i / 100_000 });
    }
  });

  it('GET /projects/:id/runners: the project part and the groups part merged, every page in order, counted once', async () => {
    for (const perPage of [1, 2, 3, 7]) {
      const asc = await allPages(`/projects/${project.id}/runners`, rootToken(), {}, perPage);
      expect(asc.seen).toEqual(byId('asc'));
      expect([...asc.totals]).toEqual(['7']);
      const desc = await allPages(`/projects/${project.id}/runners`, rootToken(), { sort: 'desc' }, perPage);
      expect(desc.seen).toEqual(byId('desc'));
    }
    const created = await allPages(`/projects/${project.id}/runners`, rootToken(), { order_by: 'created_at', sort: 'desc' }, 2);
    expect(created.seen).toEqual(byCreatedDesc());
    const typed = await allPages(`/projects/${project.id}/runners`, rootToken(), { type: 'group_type' }, 2);
    expect(typed.seen.length).toBe(4);
  });

  it("GET /runners: the caller's owned groups and maintained projects, merged and counted", async () => {
    for (const perPage of [2, 4]) {
      const owned = await allPages('/runners', owner.token, {}, perPage);
      expect(owned.seen).toEqual(byId('asc'));
      expect([...owned.totals]).toEqual(['7']);
    }
    const desc = await allPages('/runners', owner.token, { sort: 'desc' }, 3);
    expect(desc.seen).toEqual(byId('desc'));
  });

  it('GET /groups/:id/runners?membership=descendants: subgroups and projects merged', async () => {
    const res = await allPages(`/groups/${group.id}/runners`, rootToken(), { membership: 'descendants' }, 2);
    expect(res.seen).toEqual(byId('asc'));
    expect([...res.totals]).toEqual(['7']);
  });

  it('GET /runners/all?tag_list=<one tag>: the taggings are the page and the count, in both directions', async () => {
    for (const perPage of [1, 3]) {
      const asc = await allPages('/runners/all', admin.token, { tag_list: tag }, perPage);
      expect(asc.seen).toEqual(byId('asc'));
      expect([...asc.totals]).toEqual(['7']);
      const desc = await allPages('/runners/all', admin.token, { tag_list: tag, sort: 'desc' }, perPage);
      expect(desc.seen).toEqual(byId('desc'));
    }
    const created = await allPages('/runners/all', admin.token, { tag_list: tag, order_by: 'created_at', sort: 'desc' }, 2);
    expect(created.seen).toEqual(byCreatedDesc());
    const none = await api('GET', '/runners/all', { token: admin.token, query: { tag_list: uniq('no-such-tag') } });
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total')).toBe('0');
  });

  it('the stale filter (its index expression) matches a runner created and last contacted over 7 days ago, and no other', async () => {
    const [stale, fresh] = [expected[0].id, expected[1].id];
    await setRunnerTimes(stale, { createdAgoMs: 9 * DAY, contactedAgoMs: 8 * DAY });
    await setRunnerTimes(fresh, { createdAgoMs: 9 * DAY, contactedAgoMs: 6 * DAY });
    const res = await api('GET', '/runners/all', { token: admin.token, query: { tag_list: `${tag}`, status: 'stale', per_page: 100 } });
    const ids = res.body.map((r: { id: number }) => r.id);
    expect(ids).toContain(stale);
    expect(ids).not.toContain(fresh);
    await setRunnerTimes(stale, { contactedAgoMs: null });
    await setRunnerTimes(fresh, { contactedAgoMs: null });
  });
});
