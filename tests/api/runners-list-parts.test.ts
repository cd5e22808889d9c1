// The list statements that page and count a set part by part (a project's links, its groups' runners, the
// caller's owned groups and projects), the single-tag form and status=online's matches collected first from
// (contacted_at, id): every page, in every order, must be the matching slice of the whole list, with no
// runner twice or missing, and X-Total must count them all.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { rootToken } from '../support/api';
import { createRunner, DAY, dbQuery, HOUR, setRunnerTimes } from './runners-admin-support';

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

describe('[RUNNERS] status=online: the matches first, then the page among them', () => {
  let creator: TestUser;
  const online: number[] = [];
  const notOnline: number[] = [];
  const ORDERS = [
    ['id', 'asc'],
    ['id', 'desc'],
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['contacted_at', 'asc'],
    ['contacted_at', 'desc'],
  ] as const;

  /** Every page of a list at `perPage` (up to 100 of them), the ids in order and each page's X-Total. */
  async function pages(query: Record<string, string | number>, perPage: number) {
    const seen: number[] = [];
    const totals = new Set<string | null>();
    for (let page = 1; page <= 100; page++) {
      const res = await api('GET', '/runners/all', { token: creator.token, query: { ...query, per_page: perPage, page } });
      expect(res.status, res.text).toBe(200);
      totals.add(res.headers.get('x-total'));
      if (!res.body.length) return { seen, totals, pageCount: page - 1 };
      seen.push(...res.body.map((r: { id: number }) => r.id));
    }
    throw new Error(`more than 100 pages of ${perPage}: ${seen.length} runners, ${new Set(seen).size} of them distinct`);
  }

  /** The whole list in an order, filtered here to the runners the entity shows as online (the plain filter). */
  async function plainOnline(query: Record<string, string | number>) {
    const ids: number[] = [];
    for (let page = 1; page <= 1000; page++) {
      const res = await api('GET', '/runners/all', { token: creator.token, query: { ...query, per_page: 100, page } });
      expect(res.status, res.text).toBe(200);
      if (!res.body.length) return ids;
      ids.push(...res.body.filter((r: { online: boolean | null }) => r.online === true).map((r: { id: number }) => r.id));
    }
    throw new Error('more than 1,000 pages of 100 runners');
  }

  beforeAll(async () => {
    // An admin of its own: its runners are the creator_username set, which no other test file touches.
    creator = await createUser({ admin: true });
    const kinds = ['instance_type', 'group_type', 'project_type'] as const;
    const group = await createGroup(rootToken());
    const project = await createProject(rootToken(), { namespaceId: group.id });
    for (let i = 0; i < 14; i++) {
      const kind = kinds[i % 3];
      const id = await createRunner(kind, {
        token: creator.token,
        ...(kind === 'group_type' ? { groupId: group.id } : kind === 'project_type' ? { projectId: project.id } : {}),
        paused: i === 5,
      });
      // Online runners contacted minutes ago in an order unlike their ids; every fourth one offline or never
      // contacted, between them. created_at spread over days, also unlike the ids.
      const state = i % 4 === 3 ? (i % 8 === 3 ? 'offline' : 'never') : 'online';
      await setRunnerTimes(id, {
        contactedAgoMs: state === 'offline' ? 3 * HOUR : state === 'never' ? null : ((i * 5) % 13) * 60_000 + 60_000,
        createdAgoMs: ((i * 3) % 7) * DAY + DAY,
      });
      (state === 'online' ? online : notOnline).push(id);
    }
    // Ties, which the id breaks: two online runners contacted at the same instant, two created at the same one.
    await dbQuery('UPDATE ci_runners SET contacted_at = (SELECT contacted_at FROM ci_runners WHERE id = $1) WHERE id = $2', [online[0], online[4]]);
    await dbQuery('UPDATE ci_runners SET created_at = (SELECT created_at FROM ci_runners WHERE id = $1) WHERE id = $2', [online[1], online[6]]);
  });

  it('pages /runners/all?status=online in every order as the plain filter of the whole list, X-Total counting them', async () => {
    const mine = { creator_username: creator.username };
    for (const [orderBy, sort] of ORDERS) {
      const order = { ...mine, order_by: orderBy, sort };
      const expected = await plainOnline(order);
      expect(
        [...expected].sort((a, b) => a - b),
        `${orderBy} ${sort}`,
      ).toEqual([...online].sort((a, b) => a - b));
      for (const perPage of [1, 3, 4]) {
        const got = await pages({ ...order, status: 'online' }, perPage);
        expect(got.seen, `${orderBy} ${sort} per_page=${perPage}`).toEqual(expected);
        expect(got.pageCount).toBeGreaterThan(1);
        expect([...got.totals]).toEqual([String(online.length)]);
      }
      // GitLab's deprecated scope=online is the same filter.
      expect((await pages({ ...order, scope: 'online' }, 4)).seen).toEqual(expected);
    }
    // Keyset pages (counted nothing) go through the matches too.
    let next: string | undefined = `/runners/all?pagination=keyset&status=online&creator_username=${creator.username}&per_page=4`;
    const walked: number[] = [];
    for (let n = 0; next && n < 50; n++) {
      const res: { status: number; text: string; headers: Headers; body: any } = await api('GET', next, { token: creator.token });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      walked.push(...res.body.map((r: { id: number }) => r.id));
      next = res.headers.get('link')?.match(/<[^>]*\/api\/v4([^>]+)>; rel="next"/)?.[1];
    }
    expect(walked).toEqual([...online].sort((a, b) => a - b));
  });

  it("pages the whole fleet's /runners/all?status=online as its plain filter (other test files may change it: compared when it held still)", async () => {
    for (const sort of ['asc', 'desc'] as const) {
      // An attempt counts when the plain filter gave the same runners before and after the paged one; a
      // filtered list that differs from it then is a failure of the attempt, and every attempt failing is
      // the test's (the last one's lists are compared, so the failure shows them).
      let last: { got: Awaited<ReturnType<typeof pages>>; before: number[] } | undefined;
      for (let attempt = 0; attempt < 5; attempt++) {
        const before = await plainOnline({ order_by: 'id', sort });
        const got = await pages({ status: 'online', order_by: 'id', sort }, Math.max(2, Math.ceil(before.length / 4)));
        const after = await plainOnline({ order_by: 'id', sort });
        if (JSON.stringify(before) !== JSON.stringify(after)) continue;
        last = { got, before };
        if (JSON.stringify(got.seen) === JSON.stringify(before) && got.totals.size === 1 && got.totals.has(String(before.length))) break;
      }
      expect(last, `the fleet's online runners changed during each of 5 attempts (${sort})`).toBeDefined();
      expect(last!.got.seen, sort).toEqual(last!.before);
      expect([...last!.got.totals]).toEqual([String(last!.before.length)]);
    }
    const fleet = (await pages({ status: 'online' }, 100)).seen;
    for (const id of online) expect(fleet).toContain(id);
    for (const id of notOnline) expect(fleet).not.toContain(id);
  });
});
