// Server-side request forgery through repository import (issue 20, defect 1): import URLs that lead to
// this host or the local network are refused as GitLab's UrlBlocker refuses them, when the project is
// saved and again right before the fetch, unless an admin allows the local network. Every stand-in
// listens on loopback; no test here sends anything elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { inspect } from '../support/inspect';
import { withLocalRequests } from '../support/local-requests';
import { addGroupMember, createGroup } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { waitForImport } from '../fixtures/imports';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { gitHttpBackend, standIn, textAnswer, type StandIn } from '../fixtures/stand-ins';

const SECRET = 'INTERNAL-SECRET-PAGE';
const blocked = (reason: string) => ({ message: { import_url: [`is blocked: ${reason}`] } });
const LOCALHOST = 'Requests to localhost are not allowed';
const LOOPBACK = 'Requests to loopback addresses are not allowed';

let secretService: StandIn;
let gitDaemon: StandIn;
let developer: TestUser;
let group: { id: number; full_path: string };

beforeAll(async () => {
  secretService = await standIn('127.0.0.1', 0, textAnswer(`${SECRET}\n`));
  gitDaemon = await standIn('127.0.0.1');
  const owner = await createUser();
  group = (await createGroup(owner.token)) as typeof group;
  developer = await createUser();
  await addGroupMember(owner.token, group.id, developer.id, 30);
});
afterAll(async () => {
  await Promise.all([secretService?.close(), gitDaemon?.close()]);
});

function createImporting(importUrl: string, opts: { token?: string; namespaceId?: number } = {}) {
  const path = uniq('s');
  const json: Record<string, unknown> = { name: path, path, import_url: importUrl };
  if (opts.namespaceId) json.namespace_id = opts.namespaceId;
  return api('POST', '/projects', { token: opts.token ?? developer.token, json });
}

describe('[REPOSITORIES] import URLs leading to this host or the local network', () => {
  it('the repro: a Developer importing from a loopback HTTP service gets 422 and nothing is fetched', async () => {
    await withLocalRequests(false, async () => {
      const res = await createImporting(`http://127.0.0.1:${secretService.port}/repo.git`, { namespaceId: group.id });
      expect(res.status, res.text).toBe(422);
      expect(res.body).toEqual(blocked(LOCALHOST));
      expect(res.text).not.toContain(SECRET);
      const projects = await api('GET', `/groups/${group.id}/projects`, { token: developer.token });
      expect(projects.body).toEqual([]);
    });
    expect(secretService.connections).toBe(0);
  });

  it('git:// to a loopback port is refused and the listener never receives a connection', async () => {
    await withLocalRequests(false, async () => {
      const res = await createImporting(`git://127.0.0.1:${gitDaemon.port}/x`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(blocked(LOCALHOST));
    });
    expect(gitDaemon.connections).toBe(0);
  });

  it('every spelling of a loopback address, every scheme, admins too', async () => {
    const h = secretService.port;
    const g = gitDaemon.port;
    const cases: [string, string][] = [
      [`http://2130706433:${h}/repo.git`, LOCALHOST],
      [`http://0177.0.0.1:${h}/repo.git`, LOCALHOST],
      [`http://0x7f.1:${h}/repo.git`, LOCALHOST],
      [`http://[::ffff:127.0.0.1]:${h}/repo.git`, LOCALHOST],
      [`http://[::1]:${h}/repo.git`, LOCALHOST],
      [`http://0.0.0.0:${h}/repo.git`, LOCALHOST],
      [`https://127.0.0.1:${h}/repo.git`, LOCALHOST],
      [`http://127.0.0.2:${h}/repo.git`, LOOPBACK],
      // A name is judged by what it resolves to (/etc/hosts: localhost is 127.0.0.1).
      [`http://localhost:${h}/repo.git`, LOCALHOST],
      [`git://0x7f.1:${g}/x`, LOCALHOST],
      [`git://2130706433:${g}/x`, LOCALHOST],
      [`git://[::1]:${g}/x`, LOCALHOST],
      [`git://localhost:${g}/x`, LOCALHOST],
      [`ssh://git@127.0.0.1:${g}/x.git`, LOCALHOST],
      [`ssh://git@localhost:${g}/x.git`, LOCALHOST],
      ['git@127.0.0.1:group/x.git', LOCALHOST],
      ['git@0177.1:group/x.git', LOCALHOST],
    ];
    await withLocalRequests(false, async () => {
      for (const [url, reason] of cases) {
        const res = await createImporting(url);
        expect([url, res.status, res.body]).toEqual([url, 422, blocked(reason)]);
      }
      const asAdmin = await createImporting(`http://127.0.0.1:${h}/repo.git`, { token: rootToken() });
      expect(asAdmin.body).toEqual(blocked(LOCALHOST));
      // Low ports other than 22, 80 and 443 are refused before anything is resolved (GitLab's port rule).
      expect((await createImporting('http://127.0.0.1:25/repo.git')).body).toEqual(blocked('Only allowed ports are 22, 80, 443, and any over 1024'));
      expect((await createImporting(`ssh://-oProxyCommand=x@127.0.0.1:${g}/x.git`)).body).toEqual(
        blocked('Username needs to start with an alphanumeric character'),
      );
    });
    expect(secretService.connections).toBe(0);
    expect(gitDaemon.connections).toBe(0);
  });

  it('the job checks the URL again right before fetching (the DNS answer or the setting may have changed)', async () => {
    const owner = await createUser();
    const created = await api('POST', '/projects', { token: owner.token, json: { path: uniq('later') } });
    expect(created.status).toBe(201);
    const url = `http://127.0.0.1:${secretService.port}/repo.git`;
    await withLocalRequests(false, async () => {
      // A job queued while the URL was acceptable (here written straight to the queue).
      await inspect(`INSERT INTO background_jobs (kind, payload) VALUES ('repository_import', $1)`, [
        JSON.stringify({ projectId: created.body.id, url, actorId: owner.id }),
      ]);
      await api('POST', '/projects', { token: owner.token, json: { path: uniq('wake') } }); // any write; the worker also polls
      const done = await waitForImport(created.body.id, owner.token);
      expect(done.import_status).toBe('failed');
      expect(done.import_error).toBe(`Error importing repository ${url} into ${created.body.path_with_namespace} - Blocked import URL: ${LOCALHOST}`);
    });
    expect(secretService.connections).toBe(0);
  });
});

describe('[REPOSITORIES] allow_local_requests_from_web_hooks_and_services', () => {
  let repo: FixtureRepo;
  let gitServer: StandIn;
  beforeAll(async () => {
    repo = buildSampleRepo();
    gitServer = await standIn('127.0.0.1', 0, gitHttpBackend(repo.dir));
  });
  afterAll(async () => {
    await gitServer?.close();
    if (repo) removeRepo(repo);
  });

  it('is off by default, and only admins change it', async () => {
    await withLocalRequests(false, async () => {
      const settings = await api('GET', '/application/settings', { token: rootToken() });
      expect(settings.body.allow_local_requests_from_web_hooks_and_services).toBe(false);
      const byUser = await api('PUT', '/application/settings', { token: developer.token, json: { allow_local_requests_from_web_hooks_and_services: true } });
      expect(byUser.status).toBe(403);
      const bad = await api('PUT', '/application/settings', { token: rootToken(), json: { allow_local_requests_from_web_hooks_and_services: 'maybe' } });
      expect(bad.body).toEqual({ error: 'allow_local_requests_from_web_hooks_and_services is invalid' });
    });
  });

  it('on: imports from a loopback git server work (by name, resolved once and pinned; redirects not followed)', async () => {
    await withLocalRequests(true, async () => {
      const res = await createImporting(`http://localhost:${gitServer.port}/repo.git`);
      expect(res.status, res.text).toBe(201);
      const done = await waitForImport(res.body.id, developer.token);
      expect(done.import_status, done.import_error).toBe('finished');
      expect(done.default_branch).toBe('main');
      const branch = await api('GET', `/projects/${res.body.id}/repository/branches/main`, { token: developer.token });
      expect(branch.body.commit.id).toBe(repo.branches.main);
    });
    expect(gitServer.connections).toBeGreaterThan(0);
  });

  it("a failed fetch shows a fixed import_error, never the remote's answer or the port's state", async () => {
    const redirectTarget = await standIn('127.0.0.1');
    const redirecting = await standIn('127.0.0.1', 0, (_req, res) =>
      res.writeHead(302, { Location: `http://127.0.0.1:${redirectTarget.port}/repo.git` }).end(),
    );
    try {
      await withLocalRequests(true, async () => {
        for (const url of [
          `http://127.0.0.1:${secretService.port}/repo.git`,
          `git://127.0.0.1:${gitDaemon.port}/x`,
          `http://127.0.0.1:${redirecting.port}/repo.git`,
          `http://someone:hunter2@127.0.0.1:${secretService.port}/repo.git`,
        ]) {
          const res = await createImporting(url);
          expect(res.status, res.text).toBe(201);
          const done = await waitForImport(res.body.id, developer.token);
          expect(done.import_status).toBe('failed');
          const shown = url.replace('someone:hunter2', '*****:*****');
          expect(done.import_error).toBe(
            `Error importing repository ${shown} into ${res.body.path_with_namespace} - Unable to access repository with the URL and credentials provided`,
          );
          // import_error is for those who administer the project, as in GitLab.
          const reporter = await createUser();
          await api('POST', `/projects/${res.body.id}/members`, { token: developer.token, json: { user_id: reporter.id, access_level: 20 } });
          const asReporter = await api('GET', `/projects/${res.body.id}`, { token: reporter.token });
          expect(asReporter.body).not.toHaveProperty('import_error');
        }
      });
      expect(secretService.connections).toBeGreaterThan(0);
      expect(gitDaemon.connections).toBeGreaterThan(0);
      expect(redirecting.connections).toBeGreaterThan(0);
      expect(redirectTarget.connections).toBe(0);
    } finally {
      await Promise.all([redirectTarget.close(), redirecting.close()]);
    }
  });

  it('local paths stay admin-only (RUNWAY_ALLOW_LOCAL_IMPORT), whatever the setting', async () => {
    await withLocalRequests(true, async () => {
      const res = await createImporting(repo.dir);
      expect(res.body).toEqual(blocked('Requests to the local file system are not allowed'));
    });
  });
});
