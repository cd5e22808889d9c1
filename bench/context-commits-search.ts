// The previously merged commits dialog's search at the API: `npm run bench:commit-search` imports a
// 100,000-commit linear history (git fast-import) into a fresh Runway (production build in .next) and times
// the first page (per_page=40, as the dialog asks) of GET /projects/:id/repository/commits for each kind of
// search the dialog sends. Figures go to docs/performance.md.
import { freshDatabase } from '../tests/support/database';
import { buildLinearRepo, removeRepo } from '../tests/fixtures/git-repos';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../tests/support/server';

const COUNT = Number(process.env.BENCH_COMMITS ?? 100_000);
const RUNS = 10;

async function main() {
  const [port, dbPort] = [await freePort(), await freePort()];
  const database = await freshDatabase(`runway_bench_commit_search_${process.pid}`, dbPort);
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`, RUNWAY_ALLOW_LOCAL_IMPORT: 'true' });
  const repo = buildLinearRepo(COUNT);
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
    const oldSha: string = (await call('GET', `/projects/${project.id}/repository/commits?per_page=1&page=${COUNT - 10}`))[0].id;
    // buildLinearRepo: commit i by "Dev i%7", one a minute from 2020-01-01T00:00Z.
    const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    const cases: [string, string][] = [
      ['dialog opens (no filter)', ''],
      ['second page (scroll)', '&page=2'],
      ['title, recent match', `&search=${encodeURIComponent(`Commit ${COUNT - 5}`)}`],
      ['title, oldest match', `&search=${encodeURIComponent('Commit 17\n')}`],
      ['title, no match', '&search=nothing-like-this'],
      ['SHA prefix (old commit)', `&search=${oldSha.slice(0, 10)}`],
      ['author', '&author=Dev%203'],
      ['dates, recent day', `&since=${day(COUNT - 600)}&until=${day(COUNT - 300)}`],
      ['dates, oldest day', `&since=${day(1)}&until=${day(300)}`],
    ];
    console.log('| search | first page, median | p90 | rows |\n| --- | --- | --- | --- |');
    for (const [name, qs] of cases) {
      const path = `/projects/${project.id}/repository/commits?ref_name=main&per_page=40${qs}`;
      let rows = 0;
      for (let i = 0; i < 2; i++) rows = (await call('GET', path)).length;
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await call('GET', path);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(`| ${name} | ${times[Math.floor(RUNS / 2)].toFixed(0)} ms | ${times[Math.ceil(RUNS * 0.9) - 1].toFixed(0)} ms | ${rows} |`);
    }
  } finally {
    await stopServer(server);
    removeRepo(repo);
    await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
