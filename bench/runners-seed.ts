// Bench data, generated inside PostgreSQL with set-based INSERT ... SELECT generate_series (no row-by-row
// round trips): groups, projects, runners of every type and status, tags, managers, project links,
// pipelines and jobs. Runner N authenticates with the token `bench-runner-N`; the admin's PAT is returned.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchSize {
  runners: number;
  jobs: number;
}

export interface BenchData {
  adminToken: string;
  /** A project runner with many jobs (GET /runners/:id, /jobs). */
  hotRunnerId: number;
  hotRunnerToken: string;
  tag: string;
  /** The first bench group and its first project (group and project runner lists). */
  groupId: number;
  projectId: number;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

export async function seedBench(url: string, size: BenchSize, log: (s: string) => void): Promise<BenchData> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = async (label: string, text: string, values: unknown[] = []) => {
    const t = Date.now();
    const r = await c.query(text, values);
    log(`  ${label}: ${r.rowCount ?? 0} rows in ${((Date.now() - t) / 1000).toFixed(1)}s`);
    return r;
  };
  try {
    const existing = await c.query(`SELECT count(*)::int AS n, (SELECT count(*)::int FROM ci_builds) AS jobs FROM ci_runners WHERE description LIKE 'bench %'`);
    const admin = (await c.query(`SELECT id FROM users WHERE username = 'root'`)).rows[0].id as number;
    const adminToken = `glpat-bench${randomBytes(12).toString('hex')}`;
    await c.query(`INSERT INTO personal_access_tokens (user_id, name, token_digest, scopes) VALUES ($1, $2, $3, ARRAY['api'])`, [
      admin,
      `bench-${Date.now()}`,
      sha256(adminToken),
    ]);
    const { n: haveRunners, jobs: haveJobs } = existing.rows[0] as { n: number; jobs: number };
    if (haveRunners > 0 && (haveRunners !== size.runners || haveJobs !== size.jobs)) {
      throw new Error(`the bench database holds ${haveRunners} runners and ${haveJobs} jobs, not ${size.runners} and ${size.jobs}: drop it to seed again`);
    }
    if (haveRunners === 0) {
      log(`seeding ${size.runners} runners and ${size.jobs} jobs`);
      await q(
        'groups',
        `
        INSERT INTO namespaces (kind, name, path, full_path, traversal_ids, visibility)
        SELECT 'group', 'Bench ' || g, 'bench-g' || g, 'bench-g' || g, '{}', 'private' FROM generate_series(1, 100) g`,
      );
      await c.query(`UPDATE namespaces SET traversal_ids = ARRAY[id] WHERE full_path LIKE 'bench-g%'`);
      await q(
        'projects',
        `
        INSERT INTO projects (name, path, namespace_id, full_path, visibility)
        SELECT 'p' || g, 'p' || g, ns.id, ns.full_path || '/p' || g, 'private'
          FROM generate_series(1, 1000) g JOIN namespaces ns ON ns.full_path = 'bench-g' || (1 + (g - 1) / 10)`,
      );
      // Types 10% instance / 30% group / 60% project; about 1% online, many stale, 20% never contacted, 6% paused.
      await q(
        'runners',
        `
        WITH gids AS (SELECT array_agg(id ORDER BY id) a FROM namespaces WHERE full_path LIKE 'bench-g%' AND kind = 'group'),
             pids AS (SELECT array_agg(id ORDER BY id) a FROM projects WHERE full_path LIKE 'bench-g%')
        INSERT INTO ci_runners (runner_type, description, active, token_digest, contacted_at, created_at, group_id, owner_project_id,
                                creator_id, registration_type, creation_state)
        SELECT t.rt::"RunnerType", 'bench runner ' || g, g % 17 <> 0,
               encode(sha256(convert_to('bench-runner-' || g, 'UTF8')), 'hex'),
               CASE WHEN g % 5 = 0 THEN NULL ELSE now() - ((g::bigint * 7919) % 20000) * interval '1 minute' END,
               now() - interval '3 days' - (g % 300) * interval '1 day',
               CASE WHEN t.rt = 'group_type' THEN gids.a[1 + g % 100] END,
               CASE WHEN t.rt = 'project_type' THEN pids.a[1 + g % 1000] END,
               CASE WHEN g % 3 = 0 THEN $1::int END,
               CASE WHEN g % 3 = 0 THEN 'authenticated_user' ELSE 'registration_token' END::"RunnerRegistrationType",
               CASE WHEN g % 5 = 0 THEN 'started' ELSE 'finished' END::"RunnerCreationState"
          FROM generate_series(1, $2::int) g, gids, pids,
               LATERAL (SELECT CASE WHEN g % 10 = 0 THEN 'instance_type' WHEN g % 10 < 4 THEN 'group_type' ELSE 'project_type' END AS rt) t`,
        [admin, size.runners],
      );
      await q(
        'runner projects',
        `
        INSERT INTO ci_runner_projects (runner_id, project_id)
        SELECT id, owner_project_id FROM ci_runners WHERE runner_type = 'project_type' AND description LIKE 'bench %'`,
      );
      await q('tags', `INSERT INTO tags (name) SELECT 'tag-' || g FROM generate_series(0, 49) g ON CONFLICT DO NOTHING`);
      await q(
        'taggings',
        `
        INSERT INTO ci_runner_taggings (runner_id, tag_id)
        SELECT r.id, t.id FROM ci_runners r
          CROSS JOIN LATERAL (VALUES ('tag-' || (r.id % 50)), ('tag-' || ((r.id / 50) % 50)), ('tag-' || ((r.id * 7) % 50))) v(name)
          JOIN tags t ON t.name = v.name
         WHERE r.description LIKE 'bench %'
        ON CONFLICT DO NOTHING`,
      );
      await q(
        'managers',
        `
        INSERT INTO ci_runner_machines (runner_id, system_xid, version, revision, platform, architecture, executor_type, ip_address,
                                        creation_state, contacted_at, created_at)
        SELECT id, 's_' || lpad(to_hex(id), 12, '0'), (15 + id % 4) || '.' || (id % 12) || '.' || (id % 5), 'deadbeef', 'linux', 'amd64',
               'docker', '10.0.' || (id % 250) || '.' || (id % 200), creation_state, contacted_at, created_at
          FROM ci_runners WHERE description LIKE 'bench %'`,
      );
      await q(
        'pipelines',
        `
        INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, user_id)
        SELECT 1 + g / 1000, p.a[1 + g % 1000], md5(g::text) || substr(md5((g * 3)::text), 1, 8), 'main', 'success', 'push', $1::int
          FROM generate_series(0, 9999) g, (SELECT array_agg(id ORDER BY id) a FROM projects WHERE full_path LIKE 'bench-g%') p`,
        [admin],
      );
      // The first 10,000 jobs belong to the hot runner; the rest spread over every runner (about ten each
      // on both sizes, so the planner sees the same distribution at 1,000 and at 100,000 runners).
      await q(
        'jobs',
        `
        WITH rs AS (SELECT array_agg(id ORDER BY id) a, min(id) FILTER (WHERE runner_type = 'project_type') hot FROM ci_runners WHERE description LIKE 'bench %'),
             pl AS (SELECT array_agg(id ORDER BY id) ids, array_agg(project_id ORDER BY id) projects FROM ci_pipelines)
        INSERT INTO ci_builds (runner_id, project_id, pipeline_id, user_id, status, stage, name, ref, created_at, started_at, finished_at, queued_duration)
        SELECT CASE WHEN g <= 10000 THEN rs.hot ELSE rs.a[1 + (g * 31) % array_length(rs.a, 1)] END,
               pl.projects[1 + g % array_length(pl.ids, 1)], pl.ids[1 + g % array_length(pl.ids, 1)], $1::int,
               (ARRAY['success','success','success','failed','canceled','running','skipped'])[1 + g % 7], 'test', 'job ' || (g % 20), 'main',
               now() - (g % 43200) * interval '1 minute', now() - (g % 43200) * interval '1 minute' + interval '5 seconds',
               now() - (g % 43200) * interval '1 minute' + interval '3 minutes', 5
          FROM generate_series(1, $2::int) g, rs, pl`,
        [admin, size.jobs],
      );
      // Steady state: visibility map set (index-only scans), statistics fresh.
      await q('vacuum analyze', 'VACUUM ANALYZE');
    } else {
      log(`reusing ${haveRunners} seeded runners and ${haveJobs} jobs`);
    }
    const hot = (
      await c.query(`
      SELECT id, description FROM ci_runners WHERE runner_type = 'project_type' AND description LIKE 'bench %' ORDER BY id LIMIT 1`)
    ).rows[0];
    const n = Number(String(hot.description).replace('bench runner ', ''));
    const group = (await c.query(`SELECT id FROM namespaces WHERE full_path = 'bench-g1'`)).rows[0].id as number;
    const project = (await c.query(`SELECT id FROM projects WHERE full_path = 'bench-g1/p1'`)).rows[0].id as number;
    return { adminToken, hotRunnerId: hot.id, hotRunnerToken: `bench-runner-${n}`, tag: 'tag-7', groupId: group, projectId: project };
  } finally {
    await c.end();
  }
}
