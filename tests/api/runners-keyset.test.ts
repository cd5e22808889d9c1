// Keyset pagination on the runner lists (pagination=keyset, GitLab's contract for GET /projects): walked
// through rel="next" links both ways, every runner exactly once, no counts, links from the external URL,
// cursors validated as int4 ids, and an order other than id refused as GitLab refuses it.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner } from './runners-admin-support';

const OWNER = 50;

let owner: TestUser;
let group: any;
let project: any;
const tag = uniq('keyset');
// Runner ids by kind, all tagged `tag`; every third one paused.
const groupRunners: number[] = [];
const projectRunners: number[] = [];
const paused = new Set<number>();

/** The URL of rel="next" in a Link header, if any. */
function nextLink(link: string | null): string | undefined {
  return link?.match(/<([^>]+)>; rel="next"/)?.[1];
}

/** Follows rel="next" from the first keyset page to the end; returns the ids in order and every next URL. */
async function walk(path: string, token: string, query: Record<string, string | number | string[]>) {
  const ids: number[] = [];
  const links: string[] = [];
  let res = await api('GET', path, { token, query: { pagination: 'keyset', ...query } });
  for (let pages = 0; pages < 50; pages++) {
    expect(res.status, res.text).toBe(200);
    // Keyset counts nothing and numbers no pages.
    for (const h of ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page']) expect(res.headers.get(h), h).toBeNull();
    ids.push(...res.body.map((r: { id: number }) => r.id));
    const next = nextLink(res.headers.get('link'));
    if (!next) return { ids, links };
    links.push(next);
    expect(next.startsWith(`${baseUrl()}/api/v4${path}?`), next).toBe(true);
    // The link is followed as sent, with the token in the header as a script would.
    res = await api('GET', next.slice(`${baseUrl()}/api/v4`.length), { token });
  }
  throw new Error('more than 50 pages');
}

const sorted = (ids: number[], dir: 'asc' | 'desc') => [...ids].sort((a, b) => (dir === 'asc' ? a - b : b - a));

describe('[RUNNERS] keyset pagination of the runner lists', () => {
  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(rootToken());
    project = await createProject(rootToken(), { namespaceId: group.id });
    await addGroupMember(rootToken(), group.id, owner.id, OWNER);
    // No instance runners in the project's and group's lists: the sets are what this test creates.
    expect((await api('PUT', `/projects/${project.id}`, { token: rootToken(), json: { shared_runners_enabled: false } })).status).toBe(200);
    expect((await api('PUT', `/groups/${group.id}`, { token: rootToken(), json: { shared_runners_setting: 'disabled_and_unoverridable' } })).status).toBe(200);
    for (let i = 0; i < 11; i++) {
      const isProject = i % 2 === 0;
      const id = await createRunner(isProject ? 'project_type' : 'group_type', {
        ...(isProject ? { projectId: project.id } : { groupId: group.id }),
        tags: [tag],
        paused: i % 3 === 0,
      });
      (isProject ? projectRunners : groupRunners).push(id);
      if (i % 3 === 0) paused.add(id);
    }
  });

  const all = () => [...groupRunners, ...projectRunners];

  it('GET /runners/all walks every runner once, ascending by id_after and descending by id_before', async () => {
    for (const perPage of [1, 3, 11, 20]) {
      const asc = await walk('/runners/all', rootToken(), { tag_list: tag, per_page: perPage });
      expect(asc.ids).toEqual(sorted(all(), 'asc'));
      expect(asc.links.length).toBe(Math.ceil(11 / perPage) - 1);
      const desc = await walk('/runners/all', rootToken(), { tag_list: tag, per_page: perPage, sort: 'desc' });
      expect(desc.ids).toEqual(sorted(all(), 'desc'));
    }
    const { links } = await walk('/runners/all', rootToken(), { tag_list: tag, per_page: 4 });
    const first = new URL(links[0]);
    // The filters and per_page travel in the link; the cursor is the last id of the page, no page number.
    expect(first.searchParams.get('pagination')).toBe('keyset');
    expect(first.searchParams.get('per_page')).toBe('4');
    expect(first.searchParams.get('tag_list')).toBe(tag);
    expect(first.searchParams.get('id_after')).toBe(String(sorted(all(), 'asc')[3]));
    expect(first.searchParams.has('id_before')).toBe(false);
    expect(first.searchParams.has('page')).toBe(false);
    const { links: descLinks } = await walk('/runners/all', rootToken(), { tag_list: tag, per_page: 4, sort: 'desc' });
    expect(new URL(descLinks[0]).searchParams.get('id_before')).toBe(String(sorted(all(), 'desc')[3]));
    expect(new URL(descLinks[0]).searchParams.has('id_after')).toBe(false);
  });

  it('never echoes a query-string token into the link', async () => {
    const res = await api('GET', '/runners/all', { query: { pagination: 'keyset', tag_list: tag, per_page: 2, private_token: rootToken() } });
    expect(res.status).toBe(200);
    const next = nextLink(res.headers.get('link'))!;
    expect(next).toBeDefined();
    expect(next).not.toContain('private_token');
    expect(next).not.toContain(rootToken());
  });

  it('combines the filters with the cursor (type, paused, status, tags; a range with both cursors)', async () => {
    const pausedProject = projectRunners.filter((id) => paused.has(id));
    const a = await walk('/runners/all', rootToken(), { tag_list: tag, type: 'project_type', paused: 'true', per_page: 1 });
    expect(a.ids).toEqual(sorted(pausedProject, 'asc'));
    const active = all().filter((id) => !paused.has(id));
    const b = await walk('/runners/all', rootToken(), { tag_list: tag, paused: 'false', status: 'never_contacted', per_page: 2, sort: 'desc' });
    expect(b.ids).toEqual(sorted(active, 'desc'));
    // id_after and id_before together bound a range; the link keeps the other bound.
    const ids = sorted(all(), 'asc');
    const c = await walk('/runners/all', rootToken(), { tag_list: tag, id_after: ids[1], id_before: ids[9], per_page: 3 });
    expect(c.ids).toEqual(ids.slice(2, 9));
    expect(new URL(c.links[0]).searchParams.get('id_before')).toBe(String(ids[9]));
  });

  it('GET /projects/:id/runners, /groups/:id/runners and /runners (owned) page the same way', async () => {
    const p = await walk(`/projects/${project.id}/runners`, owner.token, { per_page: 2 });
    // The project's own runners plus its group's (group runners are enabled; instance runners are not).
    expect(p.ids).toEqual(sorted(all(), 'asc'));
    const pDesc = await walk(`/projects/${encodeURIComponent(project.path_with_namespace)}/runners`, owner.token, { per_page: 3, sort: 'desc' });
    expect(pDesc.ids).toEqual(sorted(all(), 'desc'));
    // The encoded path stays encoded in the link.
    expect(pDesc.links[0]).toContain(`/projects/${encodeURIComponent(project.path_with_namespace)}/runners?`);
    const g = await walk(`/groups/${group.id}/runners`, owner.token, { per_page: 4, type: 'group_type' });
    expect(g.ids).toEqual(sorted(groupRunners, 'asc'));
    const owned = await walk('/runners', owner.token, { per_page: 2, tag_list: tag });
    expect(owned.ids).toEqual(sorted(all(), 'asc'));
  });

  it('does not skip a runner when one already seen is deleted between pages (where an offset would)', async () => {
    const extra = [
      await createRunner('project_type', { projectId: project.id, tags: [tag] }),
      await createRunner('project_type', { projectId: project.id, tags: [tag] }),
      await createRunner('project_type', { projectId: project.id, tags: [tag] }),
    ];
    const first = await api('GET', '/runners/all', { token: rootToken(), query: { pagination: 'keyset', tag_list: tag, per_page: 5 } });
    expect(first.status).toBe(200);
    const seen = first.body.map((r: { id: number }) => r.id);
    expect((await api('DELETE', `/runners/${seen[0]}`, { token: rootToken() })).status).toBe(204);
    const rest: number[] = [];
    let next = nextLink(first.headers.get('link'));
    while (next) {
      const res = await api('GET', next.slice(`${baseUrl()}/api/v4`.length), { token: rootToken() });
      rest.push(...res.body.map((r: { id: number }) => r.id));
      next = nextLink(res.headers.get('link'));
    }
    expect([...seen, ...rest]).toEqual(sorted([...all(), ...extra], 'asc'));
    const gone = seen[0];
    if (groupRunners.includes(gone)) groupRunners.splice(groupRunners.indexOf(gone), 1);
    else projectRunners.splice(projectRunners.indexOf(gone), 1);
    projectRunners.push(...extra);
  });

  it('validates the cursors as int4 ids and the pagination value (Grape 400)', async () => {
    for (const [key, value] of [
      ['id_after', '2147483648'],
      ['id_before', '-2147483649'],
      ['id_after', 'x'],
    ] as const) {
      const res = await api('GET', '/runners/all', { token: rootToken(), query: { pagination: 'keyset', [key]: value } });
      expect(res.status, `${key}=${value}`).toBe(400);
      expect(res.body).toEqual({ error: `${key} is invalid` });
    }
    const bad = await api('GET', '/runners/all', { token: rootToken(), query: { pagination: 'cursor' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'pagination does not have a valid value' });
  });

  it('refuses an order other than id as GitLab does (405)', async () => {
    for (const order_by of ['created_at', 'contacted_at']) {
      const res = await api('GET', '/runners/all', { token: rootToken(), query: { pagination: 'keyset', order_by } });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
    }
    // Offset pagination keeps every order and its counts.
    const offset = await api('GET', '/runners/all', { token: rootToken(), query: { order_by: 'created_at', tag_list: tag } });
    expect(offset.status).toBe(200);
    expect(offset.headers.get('x-total')).toBe(String(all().length));
  });
});
