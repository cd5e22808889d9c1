// The cluster benchmark's small version (issue 22): two Runway instances behind HAProxy and PgBouncer,
// configured from deploy/ as docs/operations.md says, a few hundred simulated gitlab-runners polling through
// HAProxy, a dashboard client on the live event stream reading the runner list, and a writer pausing and
// renaming runners, through one rolling restart. Nothing may fail, be lost or be missed.
// `npm run bench:cluster` is the full version (bench/cluster.ts).
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFleet, type FleetRunner } from '../../bench/cluster/fleet';
import { startInstance, stopInstance, type Instance, type RunwayCommand } from '../../bench/cluster/instances';
import { startHaproxy, startPgbouncer, type Proxy } from '../../bench/cluster/proxies';
import { runScenario, type ScenarioReport } from '../../bench/cluster/scenario';
import { seedBench } from '../../bench/runners-seed';
import { needsServer } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { needsTools } from '../support/daemons';
import { cli, freePort, ROOT, runwayEnv } from '../support/server';

const RUNNERS = 300;
const server = needsServer('two Runway instances on one database');

describe('[RUNNERS] a small cluster through a rolling restart', { ...(server.skip ? server : needsTools(['haproxy', 'pgbouncer'])), timeout: 300_000 }, () => {
  let database: TestDatabase;
  let db: pg.Client;
  const daemons: Proxy[] = [];
  const instances: Instance[] = [];
  let report: ScenarioReport;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_cluster_${process.pid}`, await freePort());
    const direct = new URL(database.env.DATABASE_URL);
    const name = direct.pathname.slice(1);
    const base = runwayEnv({ ...database.env });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'cluster'], base);
    expect(made.status, made.stderr).toBe(0);
    const token = made.stdout.trim();
    await seedBench(direct.toString(), { runners: RUNNERS + 40, jobs: 20 }, () => {});
    const bouncer = await startPgbouncer({ port: await freePort(), pgPort: Number(direct.port || 5432), database: name, user: direct.username || 'postgres' });
    daemons.push(bouncer);
    const ports = [await freePort(), await freePort()];
    const balancer = await freePort();
    const run: RunwayCommand = { command: process.execPath, args: [path.join(ROOT, 'bin', 'runway.mjs')], cwd: ROOT };
    const env = runwayEnv({
      DATABASE_URL: `postgresql://${direct.username || 'postgres'}@127.0.0.1:${bouncer.port}/${bouncer.alias}`,
      RUNWAY_DATABASE_DIRECT_URL: direct.toString(),
      RUNWAY_DB_PREPARED_STATEMENTS: 'false',
      RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${balancer}`,
      RUNWAY_LONG_POLLING_SECONDS: '10',
      // Above HAProxy's three failed checks 2 s apart (deploy/haproxy/haproxy.cfg), so no request reaches a
      // closing instance; production keeps the 10 s default.
      RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: '8',
    });
    for (const [i, port] of ports.entries()) instances.push(await startInstance(`instance ${i + 1}`, port, run, env));
    daemons.push(await startHaproxy({ port: balancer, servers: ports }));
    db = new pg.Client({ connectionString: direct.toString() });
    await db.connect();
    const rows = (
      await db.query(`SELECT id, split_part(description, ' ', 3)::int AS n FROM ci_runners WHERE active AND description LIKE 'bench runner %' ORDER BY id`)
    ).rows as { id: number; n: number }[];
    const runners: FleetRunner[] = rows.slice(0, RUNNERS).map((r) => ({ id: r.id, token: `bench-runner-${r.n}`, systemId: `s_cluster${r.n}` }));
    report = await runScenario(
      { balancers: [{ port: balancer }], instances, run, env, db, database: name, fleet: new LocalFleet(), token },
      {
        steps: [runners.length],
        runners,
        writerRunnerIds: rows.slice(RUNNERS).map((r) => r.id),
        windowSeconds: 8,
        holdSeconds: 10,
        writesPerSecond: 4,
        settleSeconds: 3,
        log: () => {},
      },
    );
  }, 300_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => stopInstance(i, 30_000)));
    for (const d of daemons.reverse()) await d.stop();
    await db?.end();
    await database?.drop();
  });

  it('serves every poll through HAProxy and PgBouncer, before and during the restart', () => {
    const [step] = report.steps;
    expect(step.polls).toBeGreaterThan(0);
    expect({ failed: step.failedPolls, samples: step.errorSamples }).toEqual({ failed: 0, samples: [] });
    expect(report.restart).not.toBeNull();
    expect({ failed: report.restart!.failedPolls, samples: report.restart!.errorSamples }).toEqual({ failed: 0, samples: [] });
    expect(report.restart!.listErrors).toBe(0);
  });

  it('restarts each instance with a clean drain', () => {
    expect(report.restart!.instances.map((i) => i.exitCode)).toEqual([0, 0]);
  });

  it('keeps every acknowledged write and tells the dashboard of each', () => {
    expect(report.writes.acknowledged).toBeGreaterThan(20);
    expect(report.writes.lost).toEqual([]);
    expect(report.live.missed).toEqual([]);
    // The stream resumes after each restart with Last-Event-ID and is replayed what it missed: no refetch.
    // (Before, the fleet's first polls create 300 runner managers at once, more than a stream's backlog
    // holds: that is a resync by design.)
    expect(report.live.resyncsDuringRestart).toBe(0);
    expect(report.live.connects).toBeGreaterThan(1);
    expect(report.live.streamErrors).toEqual([]);
  });
});
