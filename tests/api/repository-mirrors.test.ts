// Repository mirrors are kept on disk under the database's instance id: two databases used from one data
// folder (a test run beside the demo, a changed DATABASE_URL) never fetch into each other's mirrors, and
// a mirror that is missing or unusable on this instance's disk is cloned again from the import URL.
// Two databases on one server are needed, so this runs against a PostgreSQL server only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../lib/db/migrations';
import { freshDatabase, type TestDatabase } from '../support/database';
import { runwayEnv } from '../support/server';
import { runCli } from '../fixtures/imports';
import { ALICE, addCommit, buildLinearRepo, buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { needsServer } from '../../lib/db/test-server';

// The same project id in both databases: before mirrors were keyed by database, both used <id>.git.
const PROJECT_ID = 4242;

interface Instance {
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
}

async function instance(name: string, dataDir: string): Promise<Instance> {
  const db = await freshDatabase(name, 0);
  const env = runwayEnv({ ...db.env, RUNWAY_DATA_DIR: dataDir });
  const sql = async (text: string, params: unknown[] = []) => {
    const c = new pg.Client({ connectionString: db.inspectUrl });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  };
  // The schema and one project are made directly: only the imports go through the CLI (each run is slow).
  await applyMigrations(db.inspectUrl, { lock: false });
  const [ns] = await sql(
    `INSERT INTO namespaces (kind, name, path, full_path, traversal_ids) VALUES ('group', 'mirrors', 'mirrors', 'mirrors', '{}') RETURNING id`,
  );
  await sql(`INSERT INTO projects (id, name, path, namespace_id, full_path) VALUES ($1, 'mirrored', 'mirrored', $2, 'mirrors/mirrored')`, [PROJECT_ID, ns.id]);
  return { db, env, sql };
}

const importInto = (i: Instance, repo: FixtureRepo) => runCli(['import-repo', '--project', String(PROJECT_ID), '--url', repo.dir], i.env);

const allShas = (repo: FixtureRepo) => execFileSync('git', ['-C', repo.dir, 'rev-list', '--all'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();

async function importedShas(i: Instance): Promise<string[]> {
  return (await i.sql<{ sha: string }>('SELECT sha FROM commits WHERE project_id = $1 ORDER BY sha', [PROJECT_ID])).map((r) => r.sha);
}

async function mirrorOf(i: Instance, dataDir: string): Promise<string> {
  const [row] = await i.sql<{ instance_id: string }>('SELECT instance_id FROM database_identity');
  return path.join(dataDir, 'repositories', row.instance_id, `${PROJECT_ID}.git`);
}

const hasObject = (mirror: string, sha: string) => {
  try {
    execFileSync('git', [`--git-dir=${mirror}`, 'cat-file', '-e', `${sha}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('[REPOSITORIES] mirrors on disk', needsServer('two databases used from one data folder'), () => {
  let dataDir: string;
  let first: Instance;
  let second: Instance;
  let repoA: FixtureRepo;
  let repoB: FixtureRepo;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runway-mirrors-'));
    [first, second] = await Promise.all([instance(`runway_test_mirrors_a_${process.pid}`, dataDir), instance(`runway_test_mirrors_b_${process.pid}`, dataDir)]);
    repoA = buildSampleRepo();
    repoB = buildLinearRepo(7);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([first?.db.drop(), second?.db.drop()]);
    if (repoA) removeRepo(repoA);
    if (repoB) removeRepo(repoB);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('two databases sharing a data folder each read their own commits for the same project id', { timeout: 240_000 }, async () => {
    // At once, as two instances would: neither may fetch into the other's mirror.
    const [a, b] = await Promise.all([importInto(first, repoA), importInto(second, repoB)]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(await importedShas(first)).toEqual(allShas(repoA));
    expect(await importedShas(second)).toEqual(allShas(repoB));
    // Re-imports fetch into each database's own mirror.
    const tip = addCommit(repoA, 'main', 'Later work\n', { ...ALICE, date: '2024-05-01T10:00:00+02:00' });
    expect((await importInto(second, repoB)).status).toBe(0);
    expect((await importInto(first, repoA)).status).toBe(0);
    expect(await importedShas(first)).toEqual(allShas(repoA));
    expect(await importedShas(second)).toEqual(allShas(repoB));
    const branches = await first.sql('SELECT name, commit_sha FROM branches WHERE project_id = $1 ORDER BY name', [PROJECT_ID]);
    expect(branches.find((r) => r.name === 'main')?.commit_sha).toBe(tip);

    const [mirrorA, mirrorB] = [await mirrorOf(first, dataDir), await mirrorOf(second, dataDir)];
    expect(mirrorA).not.toBe(mirrorB);
    expect(hasObject(mirrorA, tip)).toBe(true);
    expect(hasObject(mirrorA, repoB.branches.main)).toBe(false);
    expect(hasObject(mirrorB, repoB.branches.main)).toBe(true);
    expect(hasObject(mirrorB, tip)).toBe(false);
  });

  it('a mirror missing from disk, or left unusable, is cloned again at the next import', { timeout: 240_000 }, async () => {
    const mirror = await mirrorOf(first, dataDir);
    fs.rmSync(mirror, { recursive: true, force: true });
    const afterRemoval = addCommit(repoA, 'topic', 'Work after the mirror was removed\n', { ...ALICE, date: '2024-06-01T10:00:00+02:00' });
    const again = await importInto(first, repoA);
    expect(again.status, again.stderr).toBe(0);
    expect(await importedShas(first)).toContain(afterRemoval);
    expect(hasObject(mirror, afterRemoval)).toBe(true);

    // An emptied folder is not a repository: it is replaced, and git never acts on anything around it.
    fs.rmSync(mirror, { recursive: true, force: true });
    fs.mkdirSync(mirror);
    const afterEmptying = addCommit(repoA, 'feature', 'Work after the mirror was emptied\n', { ...ALICE, date: '2024-07-01T10:00:00+02:00' });
    const replaced = await importInto(first, repoA);
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(await importedShas(first)).toEqual(allShas(repoA));
    expect(hasObject(mirror, afterEmptying)).toBe(true);
    expect(await importedShas(second)).toEqual(allShas(repoB));
  });
});
