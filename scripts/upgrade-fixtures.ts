// `npx tsx scripts/upgrade-fixtures.ts`: remakes the dumps tests/api/upgrade.test.ts upgrades
// (tests/fixtures/upgrade/, one per layout of tests/fixtures/upgrade/seed.ts). For each layout it copies that
// commit's prisma/migrations out of git, applies them to a scratch database on the PostgreSQL server in
// DATABASE_URL with Runway's migration code (lib/db/migrations.ts, as `runway migrate` applied them then),
// seeds the fixture's rows, pins what the clock or chance wrote (the _prisma_migrations ids and times, the
// database's instance id) and writes `pg_dump --no-owner --no-privileges --inserts`: schema and data,
// loadable through any client (no COPY, no psql meta-commands). Needs git history and pg_dump.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations } from '../lib/db/migrations';
import { seedUpgradeFixture, UPGRADE_LAYOUTS, type UpgradeLayout } from '../tests/fixtures/upgrade/seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'tests', 'fixtures', 'upgrade');
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The commit's prisma/migrations, copied into a new folder. */
function migrationsAt(layout: UpgradeLayout): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-upgrade-migrations-'));
  for (const file of git('ls-tree', '-r', '--name-only', layout.commit, 'prisma/migrations').split('\n').filter(Boolean)) {
    const target = path.join(dir, path.relative('prisma/migrations', file));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, git('show', `${layout.commit}:${file}`));
  }
  return dir;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function remake(serverUrl: string, layout: UpgradeLayout): Promise<void> {
  const name = 'runway_upgrade_fixture';
  await withClient(serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dir = migrationsAt(layout);
  try {
    const applied = await applyMigrations(url.toString(), { lock: false, dir });
    if (applied.at(-1) !== layout.lastMigration) throw new Error(`${layout.commit} ends at ${applied.at(-1)}, not ${layout.lastMigration}`);
    // Applied when the layout's commit was made, one second apart, under ids that follow from the names.
    const committed = git('show', '-s', '--format=%cI', layout.commit).trim();
    await withClient(url.toString(), async (c) => {
      await c.query(
        `UPDATE _prisma_migrations m SET id = md5(m.migration_name)::uuid::text,
                started_at = $1::timestamptz + o.n * interval '1 second', finished_at = $1::timestamptz + o.n * interval '1 second'
           FROM (SELECT migration_name, row_number() OVER (ORDER BY migration_name) AS n FROM _prisma_migrations) o
          WHERE o.migration_name = m.migration_name`,
        [committed],
      );
      await seedUpgradeFixture(c);
    });
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--inserts', '--dbname', url.toString()], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const header = [
      `-- Runway upgrade fixture: the database of ${layout.commit} (migrations up to ${layout.lastMigration}), seeded by`,
      '-- tests/fixtures/upgrade/seed.ts. Made by scripts/upgrade-fixtures.ts; do not edit by hand.',
      '',
    ];
    // pg_dump's \restrict and \unrestrict lines are psql meta-commands with a random key: neither loadable
    // through a driver nor the same twice. The comment above each object only names it again (a third of the size).
    const body = dump
      .split('\n')
      .filter((line) => !/^\\(un)?restrict\b/.test(line))
      .join('\n')
      .split(/\n{2,}/)
      .filter((block) => !/^--\n-- (Name|Data for Name): [^\n]*\n--$/.test(block))
      .join('\n\n');
    writeFileSync(path.join(fixtures, layout.file), `${header.join('\n')}${body}`);
    console.log(`wrote tests/fixtures/upgrade/${layout.file} (${applied.length} migrations of ${layout.commit.slice(0, 12)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await withClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('usage: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx scripts/upgrade-fixtures.ts');
  process.exit(2);
}
for (const layout of UPGRADE_LAYOUTS) await remake(serverUrl, layout);
