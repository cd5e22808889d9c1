// The previously merged commits dialog's search: `npm run bench:commit-search` imports a 100,000-commit
// linear history (git fast-import) into a fresh Runway (production build in .next), times the first page
// (per_page=40, as the dialog asks) of GET /projects/:id/repository/commits for each kind of search the
// dialog sends, then times the dialog itself in Chromium (bench/context-commits-dialog.ts). Figures go to
// docs/performance.md. BENCH_COMMITS sets the history's length, BENCH_BROWSER=0 skips Chromium.
import { execFileSync } from 'node:child_process';
import { freshDatabase } from '../tests/support/database';
import { buildLinearRepo, removeRepo } from '../tests/fixtures/git-repos';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../tests/support/server';
import { measureDialog, type DialogCase } from './context-commits-dialog';

const COUNT = Number(process.env.BENCH_COMMITS ?? 100_000);
const RUNS = 10;
const BROWSER_RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.9) - 1];
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '-');

async function main() {
  const [port, dbPort] = [await freePort(), await freePort()];
  const database = await freshDatabase(`runway_bench_commit_search_${process.pid}`, dbPort);
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`, RUNWAY_ALLOW_LOCAL_IMPORT: 'true' });
  const repo = buildLinearRepo(COUNT);
  // A topic branch one commit ahead of main, for the merge request whose dialog Chromium opens.
  const topic = execFileSync('git', ['-C', repo.dir, 'commit-tree', 'main^{tree}', '-p', 'main', '-m', 'Topic work'], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.com', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.com' },
  }).trim();
  execFileSync('git', ['-C', repo.dir, 'update-ref', 'refs/heads/topic', topic]);
  const server = await startServer(port, env);
  try {
    const token = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'bench'], env).stdout.trim();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v4${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const started = Date.now();
    const project = await call('POST', '/projects', { name: 'bench', path: 'bench', import_url: repo.dir });
    for (;;) {
      const p = await call('GET', `/projects/${project.id}`);
      if (p.import_status === 'finished') break;
      if (p.import_status === 'failed') throw new Error(p.import_error);
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(`imported ${COUNT} commits in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const oldSha: string = repo.sha(`main~${COUNT - 17}`);
    // buildLinearRepo: commit i by "Dev i%7", one a minute from 2020-01-01T00:00Z.
    const minute = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    type Case = { search?: string; author?: string; since?: string; until?: string; page?: number };
    const cases: [string, Case][] = [
      ['dialog opens (no filter)', {}],
      ['second page (scroll)', { page: 2 }],
      ['title, match near the tip', { search: `Commit ${COUNT - 5}` }],
      ['title, oldest commit only', { search: 'Commit 17\n' }],
      ['title, 1,111 matches, none recent', { search: 'Commit 17' }],
      ['title, no match', { search: 'nothing-like-this' }],
      ['SHA prefix of an old commit', { search: oldSha.slice(0, 10) }],
      ['author (1 in 7 commits)', { author: 'Dev 3' }],
      ['author, no match', { author: 'nobody-here' }],
      ['dates, a recent window', { since: minute(COUNT - 600), until: minute(COUNT - 300) }],
      ['dates, the oldest window', { since: minute(1), until: minute(300) }],
    ];
    const qsOf = (c: Case) =>
      Object.entries(c)
        .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
        .join('');
    // The same reads in this process, straight through lib/repositories/queries (no HTTP, session or
    // Next.js): what the database work itself costs, apart from the shared request path.
    process.env.DATABASE_URL = database.env.DATABASE_URL;
    const queries = await import('../lib/repositories/queries');
    const tip = (await queries.resolveRef(project.id, 'main'))!;
    const membership = await queries.storedMembership(project.id, 'main');
    if (membership === null) throw new Error('main has no stored membership');
    console.log('| search | API p50 | API p90 | query p50 | query p90 | rows |\n| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, c] of cases) {
      const path = `/projects/${project.id}/repository/commits?ref_name=main&per_page=40${qsOf(c)}`;
      let rows = 0;
      for (let i = 0; i < 2; i++) rows = (await call('GET', path)).length;
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await call('GET', path);
        times.push(performance.now() - t);
      }
      const filters = { search: c.search, author: c.author, since: c.since ? new Date(c.since) : undefined, until: c.until ? new Date(c.until) : undefined };
      const offset = ((c.page ?? 1) - 1) * 40;
      const direct: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const t = performance.now();
        await queries.listCommits(project.id, tip, filters, offset, 40, membership);
        if (i >= 2) direct.push(performance.now() - t);
      }
      console.log(`| ${name} | ${ms(median(times))} | ${ms(p90(times))} | ${ms(median(direct))} | ${ms(p90(direct))} | ${rows} |`);
    }
    await (await import('../lib/db/client')).disconnectDb();

    if (process.env.BENCH_BROWSER === '0') return;
    const mr = await call('POST', `/projects/${project.id}/merge_requests`, { title: 'Bench', source_branch: 'topic', target_branch: 'main' });
    // The dialog's date fields are whole days: buildLinearRepo's first 1,440 commits are 2020-01-01.
    const dialogCases: DialogCase[] = [
      { name: 'title, 1,111 matches, none recent', fields: { search: 'Commit 17' }, first: 'Commit 1799' },
      { name: 'title, no match', fields: { search: 'nothing-like-this' }, first: null },
      { name: 'SHA prefix of an old commit', fields: { search: oldSha.slice(0, 10) }, first: 'Commit 17' },
      { name: 'author (1 in 7 commits)', fields: { author: 'dev3@' }, first: `Commit ${COUNT - (COUNT % 7) + 3 - (COUNT % 7 >= 3 ? 0 : 7)}` },
      { name: 'dates, the oldest day', fields: { since: '2020-01-01', until: '2020-01-01' }, first: 'Commit 1439' },
    ];
    const timings = await measureDialog(
      `http://127.0.0.1:${port}`,
      `/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`,
      dialogCases,
      `Commit ${COUNT}`,
      BROWSER_RUNS,
    );
    console.log(
      `\nChromium, ${BROWSER_RUNS} runs each\n| action | input to first page shown, p50 | p90 | search request start to shown, p50 |\n| --- | ---: | ---: | ---: |`,
    );
    for (const [name, t] of timings) {
      console.log(`| ${name} | ${ms(median(t.map((x) => x.typed)))} | ${ms(p90(t.map((x) => x.typed)))} | ${ms(median(t.map((x) => x.fetched)))} |`);
    }
  } finally {
    await stopServer(server);
    removeRepo(repo);
    // BENCH_KEEP_DB=1 leaves the database for EXPLAIN.
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept ${JSON.stringify(database.env)}`);
    else await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
