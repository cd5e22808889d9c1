// Runner upgrade statuses (issue 33; a Runway extension of the REST API, GitLab serves them through GraphQL):
// `upgrade_status` on RunnerDetails, RunnerManager and a list's `_runway`, the `upgrade_status` filter of the
// four runner lists and of the counts, its 400, the fleet overview's figures per status, and the release
// list's refresh from a file and from a URL (a stand-in on 127.0.0.1, refused by the import URL blocker
// until local requests are allowed). The release list is instance-wide: this file loads its own (dated now,
// so newer than the shipped one) and puts the shipped one back at the end.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { withLocalRequests } from '../support/local-requests';
import { createGroup, createProject } from '../support/namespaces';
import { cli, ROOT } from '../support/server';
import { createUser, type TestUser } from '../support/users';
import { standIn, type StandIn } from '../fixtures/stand-ins';
import { addManager, createRunner, dbQuery } from './runners-admin-support';

const env = () => ({ ...process.env, ...inject('runwayEnv') });
const run = (args: string[]) => cli(args, env());

/** The CLI without blocking this process, whose stand-in must answer the CLI's request meanwhile. */
function runAsync(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), ...args], { env: env(), cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
  });
}

// Against GitLab 18.6.0 (what Runway answers as) these releases give each status: 18.6.1 is current,
// 18.6.0 misses a patch, 18.5.1 is the newest of its minor inside the backport window with 18.6.1 newer
// (available), 17.0.0 is a minor the list lacks (recommended), `development version` does not parse.
const RELEASES = ['v18.4.0', 'v18.5.0', 'v18.5.1', 'v18.6.0', 'v18.6.1'];

let dir: string;
let tag: string;
let owner: TestUser;
let group: { id: number };
let project: { id: number };
const r: Record<string, number> = {};
let releasesService: StandIn;
let served: unknown = [];

async function loadReleases(versions: string[], fetchedAt = new Date().toISOString()) {
  const file = path.join(dir, `${uniq('releases')}.json`);
  await writeFile(file, JSON.stringify({ fetched_at: fetchedAt, source: 'upgrade status tests', versions }));
  return run(['runner-releases', '--file', file]);
}

const details = async (id: number) => (await api('GET', `/runners/${id}`, { token: rootToken() })).body;
const ids = (body: Array<{ id: number }>) => body.map((x) => x.id).sort((a, b) => a - b);
const sorted = (...xs: number[]) => [...xs].sort((a, b) => a - b);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'runway-releases-'));
  tag = uniq('upg');
  owner = await createUser();
  group = (await createGroup(owner.token)) as typeof group;
  project = (await createProject(owner.token, { namespaceId: group.id })) as typeof project;
  const instance = (name: string) => createRunner('instance_type', { tags: [tag], description: `${tag}-${name}` });
  r.current = await instance('current');
  r.mixed = await instance('mixed');
  r.available = await instance('available');
  r.invalid = await instance('invalid');
  r.old = await instance('old');
  r.none = await instance('none');
  r.noVersion = await instance('no-version');
  r.group = await createRunner('group_type', { groupId: group.id, tags: [tag], token: owner.token });
  r.project = await createRunner('project_type', { projectId: project.id, tags: [tag], token: owner.token });
  const m = (id: number, version: string | undefined) => addManager(id, { systemId: uniq('s'), version });
  await m(r.current, '18.6.1');
  await m(r.mixed, '18.6.0');
  await m(r.mixed, '18.6.1');
  await m(r.available, '18.5.1');
  await m(r.invalid, 'development version');
  await m(r.old, '17.0.0');
  await m(r.noVersion, undefined);
  await m(r.group, '18.6.0');
  await m(r.project, '18.5.1');
  const loaded = await loadReleases(RELEASES);
  expect(loaded.status, loaded.stderr).toBe(0);
  releasesService = await standIn('127.0.0.1', 0, (_req: http.IncomingMessage, res: http.ServerResponse) =>
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(served)),
  );
}, 120_000);

afterAll(async () => {
  await releasesService?.close();
  // The shipped list back: nothing stored, then a reconcile stores it and recomputes every status.
  await dbQuery('DELETE FROM ci_runner_releases');
  await api('PUT', '/application/settings', {
    token: rootToken(),
    json: { public_runner_releases_url: 'https://gitlab.com/api/v4/projects/gitlab-org%2Fgitlab-runner/releases?per_page=100' },
  });
  const restored = run(['runner-releases']);
  expect(restored.status, restored.stderr).toBe(0);
  await rm(dir, { recursive: true, force: true });
}, 120_000);

describe('[RUNNERS] upgrade_status on the runner and manager entities', { timeout: 60_000 }, () => {
  it("a runner's is the most urgent of its managers'; none without a manager that reported a version", async () => {
    const expected: Record<string, string | null> = {
      current: 'not_available',
      mixed: 'recommended',
      available: 'available',
      invalid: 'invalid',
      old: 'recommended',
      none: null,
      noVersion: null,
    };
    for (const [name, status] of Object.entries(expected)) {
      const body = await details(r[name]);
      expect([name, body.upgrade_status]).toEqual([name, status]);
      // Runway's extension comes last, after GitLab's RunnerDetails keys.
      expect(Object.keys(body).at(-1)).toBe('upgrade_status');
    }
  });

  it("each manager has its own version's status; a manager without a version is invalid, as GitLab checks it", async () => {
    const mixed = await api('GET', `/runners/${r.mixed}/managers`, { token: rootToken() });
    expect(mixed.status).toBe(200);
    expect(mixed.body.map((m: any) => [m.version, m.upgrade_status])).toEqual([
      ['18.6.0', 'recommended'],
      ['18.6.1', 'not_available'],
    ]);
    expect(Object.keys(mixed.body[0]).at(-1)).toBe('upgrade_status');
    const none = await api('GET', `/runners/${r.noVersion}/managers`, { token: rootToken() });
    expect(none.body.map((m: any) => [m.version, m.upgrade_status])).toEqual([[null, 'invalid']]);
  });

  it("with_details=true lists carry each runner's status in _runway", async () => {
    const res = await api('GET', '/runners/all', { token: rootToken(), query: { tag_list: tag, with_details: true, per_page: 100 } });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.map((x: any) => [x.id, x._runway.upgrade_status]));
    expect(byId.get(r.mixed)).toBe('recommended');
    expect(byId.get(r.available)).toBe('available');
    expect(byId.get(r.none)).toBeNull();
    // GitLab's Runner list entity itself is unchanged.
    expect(res.body[0]).not.toHaveProperty('upgrade_status');
  });

  it("a version a runner reports through the runner API gets its status at once (the worker's job), not at the next reconcile", async () => {
    const made = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type', tag_list: [tag] } });
    expect(made.status).toBe(201);
    r.agent = made.body.id;
    const version = `18.5.0-${uniq('rc').replace(/-/g, '')}`;
    const polled = await api('POST', '/jobs/request', { json: { token: made.body.token, system_id: uniq('s_'), info: { version } } });
    expect(polled.status, polled.text).toBe(204);
    let status: string | null = null;
    for (let i = 0; i < 50 && status === null; i++) {
      status = (await details(made.body.id)).upgrade_status;
      if (status === null) await new Promise((done) => setTimeout(done, 200));
    }
    // 18.5.0 with a suffix is older than 18.5.0 itself: a newer release of its minor exists.
    expect(status).toBe('recommended');
  });
});

describe('[RUNNERS] the upgrade_status filter of the runner lists and their counts', { timeout: 60_000 }, () => {
  it('GET /runners/all finds runners with a manager of that status (GitLab: Ci::Runner.with_upgrade_status)', async () => {
    const list = async (upgrade_status: string) =>
      ids((await api('GET', '/runners/all', { token: rootToken(), query: { tag_list: tag, upgrade_status, per_page: 100 } })).body);
    expect(await list('recommended')).toEqual(sorted(r.mixed, r.old, r.group, r.agent));
    expect(await list('available')).toEqual(sorted(r.available, r.project));
    // A runner whose managers differ is found under each of their statuses, as in GitLab.
    expect(await list('not_available')).toEqual(sorted(r.current, r.mixed));
    expect(await list('invalid')).toEqual([r.invalid]);
  });

  it("the group's, the project's and the caller's own lists filter the same way", async () => {
    const group_ = await api('GET', `/groups/${group.id}/runners`, {
      token: owner.token,
      query: { tag_list: tag, upgrade_status: 'recommended', per_page: 100 },
    });
    expect(group_.status).toBe(200);
    // The group's runner, and the instance runners the group may use.
    expect(ids(group_.body)).toEqual(expect.arrayContaining([r.group, r.mixed, r.old]));
    expect(ids(group_.body)).not.toContain(r.available);
    const project_ = await api('GET', `/projects/${project.id}/runners`, { token: owner.token, query: { tag_list: tag, upgrade_status: 'available' } });
    expect(ids(project_.body)).toEqual(sorted(r.available, r.project));
    const owned = await api('GET', '/runners', { token: owner.token, query: { upgrade_status: 'available' } });
    expect(ids(owned.body)).toEqual([r.project]);
  });

  it('the counts the lists show take the filter', async () => {
    const all = await api('GET', '/runners/all/counts', { token: rootToken(), query: { tag_list: tag, upgrade_status: 'available' } });
    expect(all.status).toBe(200);
    expect(all.body.runner_type).toEqual({ all: 2, instance_type: 1, group_type: 0, project_type: 1 });
    const grouped = await api('GET', `/groups/${group.id}/runners/counts`, { token: owner.token, query: { tag_list: tag, upgrade_status: 'invalid' } });
    expect(grouped.body.runner_type).toEqual({ all: 1, instance_type: 1, group_type: 0, project_type: 0 });
  });

  it("refuses a value it does not know with GitLab's 400 on every list and count", async () => {
    const bad = { upgrade_status: 'NOT_AVAILABLE' };
    for (const [path, token] of [
      ['/runners/all', rootToken()],
      ['/runners', owner.token],
      [`/groups/${group.id}/runners`, owner.token],
      [`/projects/${project.id}/runners`, owner.token],
      ['/runners/all/counts', rootToken()],
      [`/groups/${group.id}/runners/counts`, owner.token],
    ] as const) {
      const res = await api('GET', path, { token, query: bad });
      expect([path, res.status, res.body]).toEqual([path, 400, { error: 'upgrade_status does not have a valid value' }]);
    }
  });
});

describe('[RUNNERS] the fleet overview by upgrade status', { timeout: 60_000 }, () => {
  it("each version's status, the figures per status and the release list in use", async () => {
    const res = await api('GET', '/runners/fleet/versions', { token: rootToken() });
    expect(res.status).toBe(200);
    const status = (v: string) => res.body.versions.find((x: any) => x.version === v)?.upgrade_status;
    expect([status('18.6.1'), status('18.6.0'), status('18.5.1'), status('17.0.0'), status('development version')]).toEqual([
      'not_available',
      'recommended',
      'available',
      'recommended',
      'invalid',
    ]);
    expect(Object.keys(res.body.upgrade_statuses)).toEqual(['invalid', 'not_available', 'available', 'recommended', 'not_processed']);
    expect(res.body.upgrade_statuses.available.runners).toBeGreaterThanOrEqual(2);
    expect(res.body.releases).toMatchObject({
      source: expect.stringContaining('upgrade status tests'),
      versions_count: RELEASES.length,
      newest_version: '18.6.1',
      gitlab_version: '18.6.0',
      refresh_enabled: false,
    });
  });
});

describe('[RUNNERS] refreshing the release list', { timeout: 180_000 }, () => {
  it('from a file: what cannot be read or is older than the shipped list is refused and changes nothing', async () => {
    const notJson = path.join(dir, 'bad.json');
    await writeFile(notJson, '{');
    const bad = run(['runner-releases', '--file', notJson]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('the release list is not JSON');
    const old = await loadReleases(RELEASES, '2020-01-01T00:00:00Z');
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('before the one Runway ships');
    expect(run(['runner-releases', '--file', notJson, '--fetch']).status).toBe(2);
    const shown = run(['runner-releases']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`release list:   ${RELEASES.length} releases, newest 18.6.1`);
    expect(shown.stdout).toContain('compared with:  GitLab 18.6.0');
    expect((await details(r.current)).upgrade_status).toBe('not_available');
  });

  it("from the configured URL through the import URL blocker: a loopback stand-in is refused until local requests are allowed, then GitLab's releases API answer is read", async () => {
    const url = `http://127.0.0.1:${releasesService.port}/api/v4/projects/gitlab-org%2Fgitlab-runner/releases`;
    const set = await api('PUT', '/application/settings', { token: rootToken(), json: { public_runner_releases_url: url } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ public_runner_releases_url: url, update_runner_versions_enabled: false });
    // GitLab's releases API: newest first, each release's `name` its tag; 18.6.2 makes 18.6.1 miss a patch.
    served = ['v18.6.2', ...[...RELEASES].reverse()].map((name) => ({ name, tag_name: name, released_at: '2026-11-01T00:00:00Z' }));
    await withLocalRequests(false, async () => {
      const refused = await runAsync(['runner-releases', '--fetch']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`${url} is blocked: Requests to localhost are not allowed`);
    });
    expect(releasesService.connections).toBe(0);
    expect((await details(r.current)).upgrade_status).toBe('not_available');
    await withLocalRequests(true, async () => {
      const fetched = await runAsync(['runner-releases', '--fetch']);
      expect(fetched.status, fetched.stderr).toBe(0);
      expect(fetched.stdout).toMatch(/^stored 6 releases; \d+ runner versions in use, \d+ statuses changed\n/);
      expect(fetched.stdout).toContain(`source:         ${url}`);
    });
    expect(releasesService.connections).toBe(1);
    expect((await details(r.current)).upgrade_status).toBe('recommended');
    // The replacement is in the instance's audit log, naming the command and the (masked) source.
    const audit = await api('GET', '/audit_events', { token: rootToken(), query: { entity_type: 'Gitlab::Audit::InstanceScope', per_page: '50' } });
    expect(audit.status, audit.text).toBe(200);
    const replaced = (audit.body as Array<{ event_name: string; details: Record<string, unknown> }>).filter(
      (e) => e.event_name === 'runner_release_list_replaced',
    );
    expect(replaced[0]?.details).toMatchObject({
      author_name: 'runway runner-releases',
      target_type: 'Runway::RunnerReleaseList',
      source: url,
      releases: 6,
      custom_message: 'Replaced the gitlab-runner release list',
    });
    const fleet = await api('GET', '/runners/fleet/versions', { token: rootToken() });
    expect(fleet.body.releases).toMatchObject({ source: url, versions_count: 6, newest_version: '18.6.2' });
    // An answer that holds no release is refused, and the list stays.
    served = { message: '404 Project Not Found' };
    await withLocalRequests(true, async () => {
      const empty = await runAsync(['runner-releases', '--fetch']);
      expect(empty.status).toBe(1);
      expect(empty.stderr).toContain('neither an array of releases nor an object with `versions`');
    });
    expect((await details(r.current)).upgrade_status).toBe('recommended');
  });

  it("validates the settings with GitLab's messages", async () => {
    const put = (json: Record<string, unknown>) => api('PUT', '/application/settings', { token: rootToken(), json });
    expect((await put({ public_runner_releases_url: 'not a url' })).body).toEqual({ message: { public_runner_releases_url: ['must be a valid URL'] } });
    expect((await put({ public_runner_releases_url: 'ftp://example.com/releases' })).body).toEqual({
      message: { public_runner_releases_url: ['is blocked: Only allowed schemes are http, https'] },
    });
    expect((await put({ public_runner_releases_url: '' })).body).toEqual({ message: { public_runner_releases_url: ["can't be blank"] } });
    expect((await put({ update_runner_versions_enabled: 'sometimes' })).body).toEqual({ error: 'update_runner_versions_enabled is invalid' });
  });
});
