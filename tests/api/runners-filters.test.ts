// Runner status computation and the list filters of /runners/all (type, status, paused, tag_list with AND
// semantics, version_prefix, scope), alone and combined, invalid values, and pagination headers. Each test
// tags its runners with a unique tag so the shared server's other runners never interfere.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { rootToken } from '../support/api';
import { addManager, createRunner, DAY, dbQuery, HOUR, setRunnerTimes } from './runners-admin-support';

let admin: TestUser;
let group: any;
let project: any;

const all = (query: Record<string, string | number | boolean>) => api('GET', '/runners/all', { token: admin.token, query: { per_page: 100, ...query } });
const ids = (res: { body: any[] }) => res.body.map((r) => r.id);

describe('[RUNNERS] status computation', () => {
  const tag = uniq('status');
  const r: Record<string, number> = {};

  beforeAll(async () => {
    admin = await createUser({ admin: true });
    r.online = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(r.online, { contactedAgoMs: 60_000 });
    r.offline = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(r.offline, { contactedAgoMs: 3 * HOUR, createdAgoMs: 2 * DAY });
    r.stale = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(r.stale, { contactedAgoMs: 8 * DAY, createdAgoMs: 30 * DAY });
    r.never = await createRunner('instance_type', { tags: [tag] });
    r.staleNever = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(r.staleNever, { contactedAgoMs: null, createdAgoMs: 8 * DAY });
    r.paused = await createRunner('instance_type', { tags: [tag], paused: true });
    await setRunnerTimes(r.paused, { contactedAgoMs: 60_000 });
    r.pausedNever = await createRunner('instance_type', { tags: [tag], paused: true });
    r.justOnline = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(r.justOnline, { contactedAgoMs: 2 * HOUR - 60_000 });
  });

  it('computes status and online per runner exactly as GitLab 18', async () => {
    const expected: Record<string, [string, boolean | null]> = {
      online: ['online', true],
      offline: ['offline', false],
      stale: ['stale', false],
      never: ['never_contacted', null],
      staleNever: ['stale', null],
      paused: ['paused', true],
      pausedNever: ['never_contacted', null],
      justOnline: ['online', true],
    };
    for (const [name, [status, online]] of Object.entries(expected)) {
      const res = await api('GET', `/runners/${r[name]}`, { token: admin.token });
      expect({ name, status: res.body.status, online: res.body.online }).toEqual({ name, status, online });
    }
    const list = await all({ tag_list: tag });
    expect(list.body.find((x: any) => x.id === r.paused)).toMatchObject({ status: 'paused', paused: true, active: false });
  });

  it('filters by status with GitLab overlapping semantics', async () => {
    const by = async (status: string) => ids(await all({ tag_list: tag, status }));
    expect(await by('online')).toEqual([r.online, r.paused, r.justOnline]);
    expect(await by('offline')).toEqual([r.offline, r.stale]);
    expect(await by('never_contacted')).toEqual([r.never, r.staleNever, r.pausedNever]);
    expect(await by('stale')).toEqual([r.stale, r.staleNever]);
    expect(await by('paused')).toEqual([r.paused, r.pausedNever]);
    expect(await by('active')).toHaveLength(6);
    expect(ids(await all({ tag_list: tag, scope: 'online' }))).toEqual([r.online, r.paused, r.justOnline]);
    expect(ids(await all({ tag_list: tag, paused: true }))).toEqual([r.paused, r.pausedNever]);
    expect(ids(await all({ tag_list: tag, paused: false, status: 'online' }))).toEqual([r.online, r.justOnline]);
  });
});

describe('[RUNNERS] list filters and pagination', () => {
  const tag = uniq('filters');
  const r: Record<string, number> = {};

  beforeAll(async () => {
    admin ??= await createUser({ admin: true });
    group = await createGroup(rootToken());
    project = await createProject(rootToken(), { namespaceId: group.id });
    r.instance = await createRunner('instance_type', { tags: [tag, 'linux', 'docker'] });
    r.group = await createRunner('group_type', { groupId: group.id, tags: [tag, 'linux'] });
    r.project = await createRunner('project_type', { projectId: project.id, tags: [tag, 'docker'] });
    r.projectPaused = await createRunner('project_type', { projectId: project.id, tags: [tag, 'linux', 'docker', 'gpu'], paused: true });
    r.bare = await createRunner('instance_type', { tags: [tag] });
    await addManager(r.instance, { systemId: uniq('s'), version: '15.0.3' });
    await addManager(r.group, { systemId: uniq('s'), version: '16.0.1' });
    await addManager(r.project, { systemId: uniq('s'), version: '15.10.0' });
    await addManager(r.projectPaused, { systemId: uniq('s'), version: '15.0.12' });
  });

  it('filters by type, scope, tag_list (AND) and version_prefix, alone and combined', async () => {
    expect(ids(await all({ tag_list: tag }))).toEqual([r.instance, r.group, r.project, r.projectPaused, r.bare]);
    expect(ids(await all({ tag_list: tag, type: 'project_type' }))).toEqual([r.project, r.projectPaused]);
    expect(ids(await all({ tag_list: tag, type: 'group_type' }))).toEqual([r.group]);
    expect(ids(await all({ tag_list: tag, scope: 'shared' }))).toEqual([r.instance, r.bare]);
    expect(ids(await all({ tag_list: tag, scope: 'specific' }))).toEqual([r.group, r.project, r.projectPaused]);
    expect(ids(await all({ tag_list: `${tag},linux` }))).toEqual([r.instance, r.group, r.projectPaused]);
    expect(ids(await all({ tag_list: `${tag}, linux, docker` }))).toEqual([r.instance, r.projectPaused]);
    expect(ids(await all({ tag_list: `${tag},linux,docker,gpu` }))).toEqual([r.projectPaused]);
    expect(ids(await all({ tag_list: `${tag},nope` }))).toEqual([]);
    expect(ids(await all({ tag_list: tag, version_prefix: '15' }))).toEqual([r.instance, r.project, r.projectPaused]);
    expect(ids(await all({ tag_list: tag, version_prefix: '15.0' }))).toEqual([r.instance, r.projectPaused]);
    expect(ids(await all({ tag_list: tag, version_prefix: '15.0.' }))).toEqual([r.instance, r.projectPaused]);
    expect(ids(await all({ tag_list: tag, version_prefix: '15.0.3' }))).toEqual([r.instance]);
    expect(ids(await all({ tag_list: tag, version_prefix: '16' }))).toEqual([r.group]);
    expect(ids(await all({ tag_list: tag, version_prefix: '25' }))).toEqual([]);
    expect(ids(await all({ tag_list: `${tag},docker`, type: 'project_type', paused: false, version_prefix: '15', status: 'never_contacted' }))).toEqual([
      r.project,
    ]);
  });

  it('rejects invalid filter values with Grape bodies', async () => {
    const bad = async (query: Record<string, string>, error: string) => {
      const res = await all(query);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error } });
    };
    await bad({ type: 'bogus' }, 'type does not have a valid value');
    await bad({ status: 'bogus' }, 'status does not have a valid value');
    await bad({ scope: 'bogus' }, 'scope does not have a valid value');
    await bad({ version_prefix: 'V15' }, 'version_prefix is invalid');
    await bad({ paused: 'maybe' }, 'paused is invalid');
    await bad({ type: 'x', status: 'y' }, 'type does not have a valid value, status does not have a valid value');
  });

  it('paginates with GitLab headers and Link', async () => {
    const page1 = await api('GET', '/runners/all', { token: admin.token, query: { tag_list: tag, per_page: 2 } });
    expect(page1.status).toBe(200);
    expect(ids(page1)).toEqual([r.instance, r.group]);
    expect(
      Object.fromEntries(['x-page', 'x-per-page', 'x-total', 'x-total-pages', 'x-next-page', 'x-prev-page'].map((h) => [h, page1.headers.get(h)])),
    ).toEqual({
      'x-page': '1',
      'x-per-page': '2',
      'x-total': '5',
      'x-total-pages': '3',
      'x-next-page': '2',
      'x-prev-page': '',
    });
    const link = page1.headers.get('link')!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="last"');
    expect(link).toContain(`tag_list=${tag}`);
    const page3 = await api('GET', '/runners/all', { token: admin.token, query: { tag_list: tag, per_page: 2, page: 3 } });
    expect(ids(page3)).toEqual([r.bare]);
    expect(page3.headers.get('x-next-page')).toBe('');
    expect(page3.headers.get('x-prev-page')).toBe('2');
  });
});

describe("[RUNNERS] tag_list follows every change of a runner's tags", () => {
  // tag_list filters on ci_runners.tag_ids, which triggers derive from ci_runner_taggings: whatever writes
  // the taggings, the filter and the runner's own tag_list must agree.
  const tag = uniq('follow');
  const other = uniq('follow-other');
  const put = (id: number, tags: string[]) => api('PUT', `/runners/${id}`, { token: admin.token, json: { tag_list: tags } });
  const storedArraysAgree = async (id: number) => {
    const rows = await dbQuery(
      `
      SELECT r.tag_ids = ARRAY(SELECT rt.tag_id FROM ci_runner_taggings rt WHERE rt.runner_id = r.id ORDER BY rt.tag_id) AS agree
        FROM ci_runners r WHERE r.id = $1`,
      [id],
    );
    return rows[0].agree;
  };

  beforeAll(async () => {
    admin ??= await createUser({ admin: true });
  });

  it('finds a runner by the tags it was created with, then by the tags it is given, never by removed ones', async () => {
    const id = await createRunner('instance_type', { tags: [tag] });
    expect(ids(await all({ tag_list: tag }))).toEqual([id]);
    expect(ids(await all({ tag_list: `${tag},${other}` }))).toEqual([]);

    expect((await put(id, [tag, other])).status).toBe(200);
    expect(ids(await all({ tag_list: `${tag},${other}` }))).toEqual([id]);
    expect(ids(await all({ tag_list: other }))).toEqual([id]);

    expect((await put(id, [other])).status).toBe(200);
    expect(ids(await all({ tag_list: tag }))).toEqual([]);
    expect(ids(await all({ tag_list: other }))).toEqual([id]);

    expect((await put(id, [])).status).toBe(200);
    expect(ids(await all({ tag_list: other }))).toEqual([]);
    expect(await storedArraysAgree(id)).toBe(true);
  });

  it('keeps the filter and the taggings in agreement under concurrent tag updates of one runner', async () => {
    const id = await createRunner('instance_type', { tags: [tag] });
    const lists = Array.from({ length: 8 }, (_, i) => [tag, `${other}-${i}`, ...(i % 2 ? [`${other}-odd`] : [])]);
    const answers = await Promise.all(lists.map((l) => put(id, l)));
    expect(answers.map((a) => a.status)).toEqual(lists.map(() => 200));
    expect(await storedArraysAgree(id)).toBe(true);
    const shown = (await api('GET', `/runners/${id}`, { token: admin.token })).body.tag_list as string[];
    expect(ids(await all({ tag_list: shown.join(',') }))).toEqual([id]);
  });

  it("drops a runner from a tag's list when the tag row itself goes away (the taggings cascade)", async () => {
    const gone = uniq('gone');
    const id = await createRunner('instance_type', { tags: [tag, gone] });
    expect(ids(await all({ tag_list: gone }))).toEqual([id]);
    await dbQuery('DELETE FROM tags WHERE name = $1', [gone]);
    expect(await storedArraysAgree(id)).toBe(true);
    expect(ids(await all({ tag_list: `${tag},${gone}` }))).toEqual([]);
  });
});
