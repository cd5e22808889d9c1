// EXPLAIN (ANALYZE, BUFFERS) of the runner list statement exactly as Runway builds it (runnerPageSql), for
// every list filter, against a bench database: `DATABASE_URL=<bench database> npx tsx bench/runner-list-plans.ts`.
// BENCH_PLAN_FULL=1 prints whole plans (BENCH_PLAN_ONLY=<part of a name> picks filters); otherwise each
// filter's count, client-side median time, execution time and buffers.
import pg from 'pg';
import { runnerPageSql, type RunnerFilters, type RunnerSet } from '../lib/runners/queries';

const FULL = process.env.BENCH_PLAN_FULL === '1';
/** BENCH_PLAN_ONLY: only the filters whose name contains it. */
const ONLY = process.env.BENCH_PLAN_ONLY;

async function main() {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  const group = (await c.query(`SELECT id, traversal_ids FROM namespaces WHERE full_path = 'bench-g1'`)).rows[0];
  const project = (await c.query(`SELECT p.id, ns.traversal_ids FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id ORDER BY p.id LIMIT 1`)).rows[0];
  const root = (await c.query(`SELECT id FROM users WHERE username = 'root'`)).rows[0];
  const cases: [string, RunnerSet, RunnerFilters][] = [
    ['all', { kind: 'all' }, {}],
    ['status=online', { kind: 'all' }, { status: 'online' }],
    ['status=offline', { kind: 'all' }, { status: 'offline' }],
    ['status=never_contacted', { kind: 'all' }, { status: 'never_contacted' }],
    ['status=stale', { kind: 'all' }, { status: 'stale' }],
    ['paused=true', { kind: 'all' }, { paused: true }],
    ['type=group_type', { kind: 'all' }, { type: 'group_type' }],
    ['tag_list=tag-7', { kind: 'all' }, { tagList: ['tag-7'] }],
    ['tag_list=tag-7,tag-8', { kind: 'all' }, { tagList: ['tag-7', 'tag-8'] }],
    ['tag_list=tag-0,tag-49', { kind: 'all' }, { tagList: ['tag-0', 'tag-49'] }],
    ['tag_list=tag-7,tag-8,tag-9', { kind: 'all' }, { tagList: ['tag-7', 'tag-8', 'tag-9'] }],
    ['version_prefix=16.1', { kind: 'all' }, { versionPrefix: '16.1' }],
    ['search=runner 4', { kind: 'all' }, { search: 'runner 4' }],
    ['group bench-g1', { kind: 'group', traversalIds: group.traversal_ids, sharedRunnersEnabled: true }, {}],
    ['owned (GET /runners as root)', { kind: 'owned', userId: root.id }, {}],
    [
      'project (GET /projects/:id/runners)',
      { kind: 'project', projectId: project.id, traversalIds: project.traversal_ids, groupRunnersEnabled: true, sharedRunnersEnabled: true },
      {},
    ],
    [
      'project (GET /projects/:id/runners), tag_list=tag-7,tag-8',
      { kind: 'project', projectId: project.id, traversalIds: project.traversal_ids, groupRunnersEnabled: true, sharedRunnersEnabled: true },
      { tagList: ['tag-7', 'tag-8'] },
    ],
    ['group bench-g1, tag_list=tag-7,tag-8', { kind: 'group', traversalIds: group.traversal_ids, sharedRunnersEnabled: true }, { tagList: ['tag-7', 'tag-8'] }],
  ];
  if (process.env.BENCH_PLAN_PARALLEL !== '1') await c.query('SET max_parallel_workers_per_gather = 0');
  for (const [name, set, f] of cases.filter(([name]) => !ONLY || name.includes(ONLY))) {
    const q = runnerPageSql(set, f, 0, 20);
    await c.query({ text: q.text, values: q.values as unknown[] }); // warm the cache as a served list would
    const r = await c.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, values: q.values as unknown[] });
    const lines = r.rows.map((x) => x['QUERY PLAN'] as string);
    const rows = await c.query({ text: q.text, values: q.values as unknown[] });
    const total = rows.rows[0]?.total;
    // Client-side median of 9 runs: EXPLAIN ANALYZE's per-row timing inflates nodes that pass many rows.
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t0 = process.hrtime.bigint();
      await c.query({ text: q.text, values: q.values as unknown[] });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const median = times.sort((a, b) => a - b)[4];
    if (FULL) console.log(`\n### ${name} (count ${total})\n${lines.join('\n')}`);
    else {
      const exec = lines.find((l) => l.startsWith('Execution Time'));
      const buffers = lines.find((l) => l.trim().startsWith('Buffers'));
      console.log(
        `| ${name} | ${total ?? 0} | ${median.toFixed(2)} ms | ${exec?.replace('Execution Time: ', '')} | ${buffers?.trim().replace('Buffers: ', '')} |`,
      );
    }
  }
  await c.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
