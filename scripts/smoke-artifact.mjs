#!/usr/bin/env node
// Smoke test of the production artifact (`npm run package`), as an operator runs it: copied to a temporary
// folder outside the checkout (so neither tsx nor TypeScript nor any other package of the checkout is on its
// module path) and run with a clean environment. Checks `runway --version`, `runway migrate`, a server on
// PostgreSQL (JSON log lines only, the generated root password in its 0600 file and in no log, readiness,
// sign-in with that password, a CLI token over the API, the packaged revision in /api/v4/metadata, route
// labels in /-/metrics, what clients do under the shipped defaults (the runner agent's register, verify, job
// request and unregister; the context-commit API on an imported repository; a page and a real 404), a clean
// stop on SIGTERM) and a server on the embedded database (first start and restart), and prints the figures docs/install.md quotes: size, start-to-ready time, idle RSS.
// usage: node scripts/smoke-artifact.mjs [dist]   PostgreSQL: DATABASE_URL, else 127.0.0.1:5432 (user postgres)
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entriesUnder } from './package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(root, process.argv[2] ?? 'dist');
const serverUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const figures = {};

function fail(message, output = '') {
  if (output) console.error(output);
  console.error(`smoke-artifact: FAILED: ${message}`);
  process.exit(1);
}
const check = (ok, message, output) => ok || fail(message, output);

if (!existsSync(path.join(dist, 'bin', 'runway'))) fail(`no artifact in ${dist} (run: npm run package)`);
const work = mkdtempSync(path.join(os.tmpdir(), 'runway-artifact-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
const app = path.join(work, 'runway');
cpSync(dist, app, { recursive: true, verbatimSymlinks: true });
const copied = mtimes(app);
const runway = path.join(app, 'bin', 'runway');

/** Only what an operator sets: no NODE_OPTIONS or NODE_PATH from the test run (a tsx loader, say). */
function cleanEnv(extra) {
  return { PATH: process.env.PATH, HOME: work, LANG: 'C.UTF-8', RUNWAY_LOG_LEVEL: 'info', ...extra };
}

function cli(args, env) {
  const r = spawnSync(runway, args, { cwd: work, env: cleanEnv(env), encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

async function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function get(url, init) {
  try {
    return await fetch(url, { redirect: 'manual', ...init });
  } catch {
    return undefined;
  }
}

/** Starts `runway start`, waits for /-/readiness to answer 200; returns the process and how long that took. */
async function startServer(label, env) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(runway, ['start'], { cwd: work, env: cleanEnv({ HOST: '127.0.0.1', PORT: String(port), RUNWAY_EXTERNAL_URL: base, ...env }) });
  children.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) fail(`${label}: runway exited (${child.exitCode}) before it was ready`, out.stdout + out.stderr);
    if (Date.now() > deadline) fail(`${label}: not ready within 180 s`, out.stdout + out.stderr);
    if ((await get(`${base}/-/readiness`))?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyMs = Math.round(performance.now() - started);
  return { child, base, out, readyMs, cpuMs: cpuMs(child.pid) };
}

/** CPU time (user + system) the process has used: a start's cost, unlike wall time, barely moves on a busy machine. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  return Math.round((ticks * 1000) / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout || 100));
}

/** Every file under `dir` with its modification time. */
function mtimes(dir) {
  return new Map([...entriesUnder(dir)].map(({ full }) => [path.relative(dir, full), lstatSync(full).mtimeMs]));
}

/** The idle resident set after a few quiet seconds, from /proc (the server is one process). */
async function idleRss(pid) {
  await new Promise((r) => setTimeout(r, 5_000));
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

async function stopServer(label, server) {
  const exited = new Promise((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })));
  server.child.kill('SIGTERM');
  const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 30_000))]);
  children.delete(server.child);
  check(result?.code === 0, `${label}: did not exit cleanly on SIGTERM (${JSON.stringify(result)})`, server.out.stdout + server.out.stderr);
}

/** Every line on stdout is one JSON object with time, level and msg. */
function checkJsonLines(label, stdout) {
  const lines = stdout.split('\n').filter((l) => l !== '');
  check(lines.length > 0, `${label}: nothing logged on stdout`);
  for (const line of lines) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      fail(`${label}: a stdout line is not JSON: ${line}`, stdout);
    }
    check(typeof entry.time === 'string' && typeof entry.level === 'string' && typeof entry.msg === 'string', `${label}: not a log entry: ${line}`);
  }
  return lines.map((l) => JSON.parse(l));
}

/** The session cookie of a sign-in through next-auth's credentials flow, or null. */
async function sessionCookie(base, username, password) {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = await csrf.json();
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: csrf.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    },
    body: new URLSearchParams({ csrfToken, username, password, json: 'true' }).toString(),
  });
  return (
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('next-auth.session-token=')) ?? null
  );
}

async function signIn(base, username, password) {
  return (await sessionCookie(base, username, password)) !== null;
}

async function tokenWorks(base, env) {
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api'], env);
  check(made.status === 0 && /^glpat-[\w-]{20}\n$/.test(made.stdout), 'create-token did not print a token', made.stdout + made.stderr);
  const me = await get(`${base}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': made.stdout.trim() } });
  check(me?.status === 200 && (await me.json()).username === 'root', `GET /api/v4/user with the CLI's token answered ${me?.status}`);
  // The revision clients read is the one packaged, not a git lookup (the artifact has no .git).
  const metadata = await get(`${base}/api/v4/metadata`, { headers: { 'PRIVATE-TOKEN': made.stdout.trim() } });
  const revision = metadata?.status === 200 ? (await metadata.json()).revision : undefined;
  check(revision === info.revision, `GET /api/v4/metadata answered ${metadata?.status} with revision ${revision}, not ${info.revision}`);
}

/**
 * What clients do against the shipped defaults (only the operator's variables are set): the gitlab-runner
 * agent's conversation, the merge-request context-commit API (on a repository imported over HTTP, as an
 * operator's users import one) and dashboard pages, including a real 404.
 */
async function clientConversations(base, env, rootPassword) {
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'smoke-clients'], env);
  check(made.status === 0, 'create-token failed', made.stdout + made.stderr);
  const token = made.stdout.trim();
  const call = async (method, apiPath, body, headers = { 'PRIVATE-TOKEN': token }) => {
    const res = await fetch(`${base}/api/v4${apiPath}`, {
      method,
      headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
  };
  const expectStatus = (res, status, what) => check(res.status === status, `${what} answered ${res.status}, not ${status}: ${res.text}`);

  // The runner agent: `gitlab-runner register --token glrt-...` verifies, then polls for jobs, then unregisters.
  const runner = await call('POST', '/user/runners', { runner_type: 'instance_type', description: 'smoke-runner' });
  expectStatus(runner, 201, 'POST /user/runners');
  const agent = { 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22; linux/amd64)' };
  const systemId = `s_${randomBytes(6).toString('hex')}`;
  expectStatus(await call('POST', '/runners/verify', { token: runner.body.token, system_id: systemId }, agent), 200, 'POST /runners/verify');
  const runnerInfo = { name: 'gitlab-runner', version: '17.5.0', revision: 'smoke', platform: 'linux', architecture: 'amd64', executor: 'shell', features: {} };
  const poll = await call('POST', '/jobs/request', { token: runner.body.token, system_id: systemId, info: runnerInfo }, agent);
  expectStatus(poll, 204, 'POST /jobs/request (no job)');
  check(!!poll.headers.get('x-gitlab-last-update'), 'POST /jobs/request did not send X-GitLab-Last-Update');
  // The first contact and the new manager are written at once under the shipped heartbeat flush (issue 30).
  const seen = await call('GET', `/runners/${runner.body.id}`);
  check(seen.body?.status === 'online' && seen.body?.online === true && !!seen.body?.contacted_at, `GET /runners/:id right after the first poll: ${seen.text}`);
  const managers = await call('GET', `/runners/${runner.body.id}/managers`);
  check(
    managers.body?.length === 1 && managers.body[0].system_id === systemId && managers.body[0].version === '17.5.0',
    `GET /runners/:id/managers right after the first poll: ${managers.text}`,
  );
  expectStatus(await call('DELETE', '/runners/managers', { token: runner.body.token, system_id: systemId }, agent), 204, 'DELETE /runners/managers');
  expectStatus(await call('DELETE', '/runners', { token: runner.body.token }, agent), 204, 'DELETE /runners (unregister)');
  expectStatus(await call('GET', `/runners/${runner.body.id}`), 404, 'GET /runners/:id after unregister');

  // A repository served over HTTP from this machine; importing from the local network is an admin setting.
  const repoDir = path.join(work, 'smoke-repo');
  const git = (...args) => {
    const r = spawnSync('git', args, {
      cwd: repoDir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Smoke',
        GIT_AUTHOR_EMAIL: 'smoke@example.com',
        GIT_COMMITTER_NAME: 'Smoke',
        GIT_COMMITTER_EMAIL: 'smoke@example.com',
      },
    });
    check(r.status === 0, `git ${args.join(' ')} failed`, r.stdout + r.stderr);
    return r.stdout.trim();
  };
  spawnSync('mkdir', ['-p', repoDir]);
  git('init', '--quiet', '--initial-branch=main');
  const commitOn = (message, date) => {
    spawnSync('sh', ['-c', `echo '${message}' >> file.txt`], { cwd: repoDir });
    git('add', 'file.txt');
    spawnSync('git', ['commit', '--quiet', '-m', message], {
      cwd: repoDir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Smoke',
        GIT_AUTHOR_EMAIL: 'smoke@example.com',
        GIT_COMMITTER_NAME: 'Smoke',
        GIT_COMMITTER_EMAIL: 'smoke@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
    return git('rev-parse', 'HEAD');
  };
  const older = commitOn('older', '2024-03-01T10:00:00Z');
  const newer = commitOn('newer', '2024-03-08T10:00:00Z');
  git('checkout', '--quiet', '-b', 'feature');
  commitOn('feature', '2024-03-09T10:00:00Z');
  git('checkout', '--quiet', 'main');
  const bare = path.join(work, 'smoke-repo.git');
  spawnSync('git', ['clone', '--quiet', '--bare', repoDir, bare]);
  spawnSync('git', ['update-server-info'], { cwd: bare });
  const http = await import('node:http');
  const fileServer = http.createServer((req, res) => {
    const file = path.join(bare, decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/smoke\.git/, ''));
    if (!file.startsWith(bare) || !existsSync(file) || statSync(file).isDirectory()) return res.writeHead(404).end();
    res.writeHead(200).end(readFileSync(file));
  });
  await new Promise((r) => fileServer.listen(0, '127.0.0.1', r));
  try {
    expectStatus(await call('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true }), 200, 'PUT /application/settings');
    const project = await call('POST', '/projects', { name: 'smoke', path: 'smoke', import_url: `http://127.0.0.1:${fileServer.address().port}/smoke.git` });
    expectStatus(project, 201, 'POST /projects with import_url');
    const deadline = Date.now() + 120_000;
    let status;
    while (Date.now() < deadline && (status = (await call('GET', `/projects/${project.body.id}`)).body.import_status) !== 'finished') {
      check(status !== 'failed', 'the import failed');
      await new Promise((r) => setTimeout(r, 500));
    }
    check(status === 'finished', `the import did not finish (${status})`);
    const mr = await call('POST', `/projects/${project.body.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Smoke' });
    expectStatus(mr, 201, 'POST merge_requests');
    const contextPath = `/projects/${project.body.id}/merge_requests/${mr.body.iid}/context_commits`;
    // Added newest committed first, then the older: GitLab's API lists them in that (insertion) order.
    expectStatus(await call('POST', contextPath, { commits: [newer] }), 201, 'POST context_commits');
    expectStatus(await call('POST', contextPath, { commits: [older] }), 201, 'POST context_commits');
    const listed = await call('GET', `${contextPath}?per_page=1`);
    expectStatus(listed, 200, 'GET context_commits');
    check(
      listed.body.length === 1 && listed.body[0].id === newer && listed.headers.get('x-total') === '2',
      `GET context_commits page 1 is not the first added: ${listed.text}`,
    );
    const second = await call('GET', `${contextPath}?per_page=1&page=2`);
    check(second.body[0]?.id === older, `GET context_commits page 2 is not the second added: ${second.text}`);

    // Pages: the project's page renders for root; an unknown address is a real 404.
    const cookie = await sessionCookie(base, 'root', rootPassword);
    const page = await get(`${base}/${project.body.path_with_namespace}`, { headers: { Cookie: cookie } });
    check(page?.status === 200 && (await page.text()).includes('<meta name="csrf-token"'), `the project page answered ${page?.status}`);
    const missing = await get(`${base}/no/such/page`, { headers: { Cookie: cookie } });
    check(missing?.status === 404 && (await missing.text()).includes('Page not found'), `an unknown page answered ${missing?.status}, not 404`);
    // The runner deleted above: its page is a real 404 too, as the API's answer for it.
    const gone = await get(`${base}/admin/runners/${runner.body.id}`, { headers: { Cookie: cookie } });
    check(gone?.status === 404, `the page of a deleted runner answered ${gone?.status}, not 404`);
  } finally {
    fileServer.close();
  }
}

// --- The artifact itself: nothing of the development tool chain can be loaded from it.
for (const name of ['tsx', 'typescript', 'esbuild', 'vitest']) {
  const r = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(name)}).then(() => process.exit(1), () => process.exit(0))`], {
    cwd: path.join(app, 'bin'),
    env: cleanEnv({}),
  });
  check(r.status === 0, `${name} can be imported from the artifact`);
}
const info = JSON.parse(readFileSync(path.join(app, 'build-info.json'), 'utf8'));
const pkgVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
for (const args of [['--version'], ['version']]) {
  const v = cli(args, {});
  check(
    v.status === 0 && v.stdout.includes(`Version:      ${pkgVersion}\n`) && v.stdout.includes(`Git revision: ${info.revision}\n`),
    `runway ${args[0]} is wrong`,
    v.stdout + v.stderr,
  );
}
const du = (dir) => Number(spawnSync('du', ['-sk', dir], { encoding: 'utf8' }).stdout.split('\t')[0]) * 1024;
figures.size_mib = +(du(app) / 2 ** 20).toFixed(1);
figures.size_without_node_modules_mib = +((du(app) - du(path.join(app, 'node_modules'))) / 2 ** 20).toFixed(1);

// --- PostgreSQL server: a database of our own, migrated by `runway migrate`, then served.
const pg = (await import(path.join(app, 'node_modules', 'pg', 'lib', 'index.js'))).default;
const admin = new pg.Client({ connectionString: serverUrl });
let database;
try {
  await admin.connect();
  database = `runway_artifact_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
} catch (err) {
  fail(`PostgreSQL at ${serverUrl.replace(/:[^:@/]*@/, ':***@')} is needed: ${err.message}`);
}
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${database}`;
try {
  const dataDir = path.join(work, 'data-postgresql');
  const env = { DATABASE_URL: dbUrl.toString(), RUNWAY_DATA_DIR: dataDir };
  const migrated = cli(['migrate'], env);
  check(migrated.status === 0 && /^applied: \d{14}_/.test(migrated.stdout), 'runway migrate did not apply the migrations', migrated.stdout + migrated.stderr);
  const again = cli(['migrate'], env);
  check(again.status === 0 && again.stdout === 'database is up to date\n', 'runway migrate is not idempotent', again.stdout + again.stderr);

  const server = await startServer('PostgreSQL', env);
  figures.ready_postgresql_ms = server.readyMs;
  figures.ready_postgresql_cpu_ms = server.cpuMs;
  figures.idle_rss_postgresql_mib = await idleRss(server.child.pid);
  const entries = checkJsonLines('PostgreSQL', server.out.stdout);
  check(
    entries.some((e) => e.msg === 'Runway is ready' && e.version === pkgVersion && e.revision === info.revision && e.database === 'postgresql'),
    'no "Runway is ready" line with the version',
    server.out.stdout,
  );
  const file = path.join(dataDir, 'initial_root_password');
  check(
    entries.some((e) => e.password_file === file),
    'the log does not name the initial root password file',
    server.out.stdout,
  );
  check(existsSync(file) && (statSync(file).mode & 0o777) === 0o600, 'the initial root password file is missing or not 0600');
  const password = /^Password: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
  check(
    !!password && !server.out.stdout.includes(password) && !server.out.stderr.includes(password),
    'the generated root password is missing from its file or is in the log',
  );
  check(await signIn(server.base, 'root', password), "root cannot sign in with the file's password");
  await tokenWorks(server.base, env);
  await clientConversations(server.base, env, password);
  check((await get(`${server.base}/sign-in`))?.status === 200, 'the sign-in page does not render');
  const metrics = await (await get(`${server.base}/-/metrics`))?.text();
  check(metrics?.includes('route="/api/v4/user"'), 'route labels are missing from /-/metrics (the built app folder was not read)', metrics);
  await stopServer('PostgreSQL', server);
  checkJsonLines('PostgreSQL (after the stop)', server.out.stdout);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}

// --- The embedded database: a first start (migrations on an empty folder), then a restart.
{
  const env = { RUNWAY_DATA_DIR: path.join(work, 'data-embedded'), INITIAL_ROOT_PASSWORD: 'artifact-smoke-password' };
  const first = await startServer('embedded', env);
  figures.ready_embedded_first_start_ms = first.readyMs;
  figures.ready_embedded_first_start_cpu_ms = first.cpuMs;
  await tokenWorks(first.base, env); // through the running server's connection
  await stopServer('embedded', first);
  const restart = await startServer('embedded restart', env);
  figures.ready_embedded_ms = restart.readyMs;
  figures.ready_embedded_cpu_ms = restart.cpuMs;
  figures.idle_rss_embedded_mib = await idleRss(restart.child.pid);
  checkJsonLines('embedded', first.out.stdout + restart.out.stdout);
  check(await signIn(restart.base, 'root', 'artifact-smoke-password'), 'root cannot sign in on the embedded database');
  await stopServer('embedded restart', restart);
}

// Data goes to RUNWAY_DATA_DIR only: the artifact can be read-only (the image's /app, ProtectSystem=strict).
const written = [...mtimes(app)].filter(([file, mtime]) => copied.get(file) !== mtime).map(([file]) => file);
check(written.length === 0, `the server wrote into the artifact: ${written.slice(0, 10).join(', ')}`);

console.log(`smoke-artifact: the artifact serves on PostgreSQL and the embedded database: ${JSON.stringify(figures)}`);
