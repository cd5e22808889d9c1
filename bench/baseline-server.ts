// The baseline for the runner benchmark: plain node:http + pg, no framework, answering the same endpoints
// with the same SQL Runway runs (token lookup, filters, page, count, page relations), so the ratio
// Runway/baseline shows what the framework layers cost. Not a product: no validation beyond the bench's needs.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The ci_runners columns a runner's summary reads (pg gives timestamps as Date). */
interface BenchRunnerRow {
  id: number;
  description: string | null;
  name: string | null;
  active: boolean;
  runner_type: string;
  created_at: Date;
  contacted_at: Date | null;
}

export function startBaseline(databaseUrl: string, port: number): Promise<http.Server> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

  async function user(req: http.IncomingMessage) {
    const token = String(req.headers['private-token'] ?? '');
    const r = await pool.query(`SELECT u.* FROM personal_access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_digest = $1 AND NOT t.revoked`, [
      sha256(token),
    ]);
    return r.rows[0];
  }

  function summary(r: BenchRunnerRow, running: Set<number>) {
    const now = Date.now();
    const contacted = r.contacted_at ? new Date(r.contacted_at).getTime() : null;
    const stale = Math.max(new Date(r.created_at).getTime(), contacted ?? 0) <= now - 7 * 864e5;
    const online = contacted === null ? null : contacted > now - 2 * 36e5;
    const status = stale ? 'stale' : contacted === null ? 'never_contacted' : r.active ? (online ? 'online' : 'offline') : 'paused';
    return {
      id: r.id,
      description: r.description,
      ip_address: null,
      active: r.active,
      paused: !r.active,
      is_shared: r.runner_type === 'instance_type',
      runner_type: r.runner_type,
      name: r.name,
      online,
      created_at: iso(r.created_at),
      status,
      job_execution_status: running.has(r.id) ? 'active' : 'idle',
    };
  }

  async function runningOf(ids: number[]) {
    const r = await pool.query(
      `SELECT r.id FROM unnest($1::int[]) AS r(id) WHERE EXISTS (SELECT 1 FROM ci_builds b WHERE b.runner_id = r.id AND b.status = 'running')`,
      [ids],
    );
    return new Set<number>(r.rows.map((x) => x.id));
  }

  async function listAll(url: URL) {
    const conds: string[] = ['TRUE'];
    const vals: unknown[] = [];
    const type = url.searchParams.get('type');
    if (type) conds.push(`r.runner_type = $${vals.push(type)}::"RunnerType"`);
    const status = url.searchParams.get('status');
    if (status === 'online') conds.push(`r.contacted_at > now() - interval '2 hours'`);
    if (status === 'offline') conds.push(`r.contacted_at <= now() - interval '2 hours'`);
    if (status === 'never_contacted') conds.push(`r.contacted_at IS NULL`);
    if (status === 'paused') conds.push(`r.active = false`);
    // The tags intersect in one subquery over the taggings, as Runway's tag filter does.
    const tags = (url.searchParams.get('tag_list') ?? '').split(',').filter(Boolean);
    if (tags.length) {
      const tagId = (tag: string) => `(SELECT id FROM tags WHERE name = $${vals.push(tag)})`;
      const joins = tags
        .slice(1)
        .map((tag, i) => `JOIN ci_runner_taggings t${i + 1} ON t${i + 1}.runner_id = t0.runner_id AND t${i + 1}.tag_id = ${tagId(tag)}`);
      conds.push(`r.id IN (SELECT t0.runner_id FROM ci_runner_taggings t0 ${joins.join(' ')} WHERE t0.tag_id = ${tagId(tags[0])})`);
    }
    const where = conds.join(' AND ');
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const [rows, count] = await Promise.all([
      pool.query(`SELECT r.* FROM ci_runners r WHERE ${where} ORDER BY r.id LIMIT ${perPage} OFFSET 0`, vals),
      pool.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_runners r WHERE ${where} LIMIT 10001) x`, vals),
    ]);
    const ids = rows.rows.map((r) => r.id);
    const creators = [...new Set(rows.rows.map((r) => r.creator_id).filter(Boolean))];
    const [running] = await Promise.all([runningOf(ids), pool.query(`SELECT * FROM users WHERE id = ANY($1::int[])`, [creators])]);
    return { body: rows.rows.map((r) => summary(r, running)), headers: { 'X-Total': String(count.rows[0].n), 'X-Page': '1', 'X-Per-Page': String(perPage) } };
  }

  async function show(id: number) {
    const r = (await pool.query(`SELECT * FROM ci_runners WHERE id = $1`, [id])).rows[0];
    if (!r) return null;
    const [tags, manager, projects, running] = await Promise.all([
      pool.query(`SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id WHERE rt.runner_id = $1 ORDER BY rt.id`, [id]),
      pool.query(
        `SELECT version, revision, platform, architecture FROM ci_runner_machines WHERE runner_id = $1 ORDER BY contacted_at DESC NULLS LAST, id DESC LIMIT 1`,
        [id],
      ),
      pool.query(
        `SELECT p.*, n.name AS ns_name, n.full_path AS ns_full_path FROM ci_runner_projects rp JOIN projects p ON p.id = rp.project_id JOIN namespaces n ON n.id = p.namespace_id WHERE rp.runner_id = $1 ORDER BY rp.id`,
        [id],
      ),
      runningOf([id]),
    ]);
    const m = manager.rows[0] ?? {};
    return {
      ...summary(r, running),
      tag_list: tags.rows.map((t) => t.name),
      run_untagged: r.run_untagged,
      locked: r.locked,
      maximum_timeout: r.maximum_timeout,
      access_level: r.access_level,
      version: m.version ?? null,
      revision: m.revision ?? null,
      platform: m.platform ?? null,
      architecture: m.architecture ?? null,
      contacted_at: iso(r.contacted_at),
      maintenance_note: r.maintenance_note,
      projects: projects.rows.map((p) => ({
        id: p.id,
        name: p.name,
        path: p.path,
        path_with_namespace: p.full_path,
        name_with_namespace: `${p.ns_name} / ${p.name}`,
      })),
      groups: [],
    };
  }

  async function jobs(id: number, perPage: number) {
    const [ids, count] = await Promise.all([
      pool.query(`SELECT b.id FROM ci_builds b WHERE b.runner_id = $1 ORDER BY b.id ASC LIMIT ${perPage} OFFSET 0`, [id]),
      pool.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_builds b WHERE b.runner_id = $1 LIMIT 10001) x`, [id]),
    ]);
    const rows = (await pool.query(`SELECT * FROM ci_builds WHERE id = ANY($1::int[]) ORDER BY id`, [ids.rows.map((r) => r.id)])).rows;
    const uniq = (k: string) => [...new Set(rows.map((r) => r[k]).filter((x) => x !== null))];
    const [users, pipelines, projects] = await Promise.all([
      pool.query(`SELECT * FROM users WHERE id = ANY($1::int[])`, [uniq('user_id')]),
      pool.query(`SELECT * FROM ci_pipelines WHERE id = ANY($1::int[])`, [uniq('pipeline_id')]),
      pool.query(`SELECT p.*, n.name AS ns_name FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = ANY($1::int[])`, [uniq('project_id')]),
    ]);
    const u = new Map(users.rows.map((x) => [x.id, x]));
    const pl = new Map(pipelines.rows.map((x) => [x.id, x]));
    const pr = new Map(projects.rows.map((x) => [x.id, x]));
    const body = rows.map((j) => ({
      id: j.id,
      status: j.status,
      stage: j.stage,
      name: j.name,
      ref: j.ref,
      tag: j.tag,
      coverage: j.coverage,
      allow_failure: j.allow_failure,
      created_at: iso(j.created_at),
      started_at: iso(j.started_at),
      finished_at: iso(j.finished_at),
      erased_at: iso(j.erased_at),
      duration: j.started_at && j.finished_at ? (j.finished_at - j.started_at) / 1000 : null,
      queued_duration: j.queued_duration,
      user: u.get(j.user_id) ? { id: j.user_id, username: u.get(j.user_id).username, name: u.get(j.user_id).name } : null,
      commit: null,
      pipeline: pl.get(j.pipeline_id) ? { id: j.pipeline_id, sha: pl.get(j.pipeline_id).sha, status: pl.get(j.pipeline_id).status } : null,
      project: pr.get(j.project_id) ? { id: j.project_id, name: pr.get(j.project_id).name, path_with_namespace: pr.get(j.project_id).full_path } : null,
    }));
    return { body, headers: { 'X-Total': String(count.rows[0].n) } };
  }

  async function runnerContact(token: string, systemId: string | undefined) {
    const r = (await pool.query(`SELECT * FROM ci_runners WHERE token_digest = $1 AND (token_expires_at IS NULL OR token_expires_at > now())`, [sha256(token)]))
      .rows[0];
    if (!r) return null;
    await pool.query(`UPDATE ci_runners SET contacted_at = now() WHERE id = $1 AND (contacted_at IS NULL OR contacted_at < now() - interval '40 minutes')`, [
      r.id,
    ]);
    await pool.query(
      `INSERT INTO ci_runner_machines (runner_id, system_xid, contacted_at, creation_state) VALUES ($1, $2, now(), 'finished')
       ON CONFLICT (runner_id, system_xid) DO UPDATE SET contacted_at = now()`,
      [r.id, systemId ?? '<legacy>'],
    );
    return r;
  }

  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname.replace(/^\/api\/v4/, '');
      if (req.method === 'POST') {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const body = raw ? JSON.parse(raw) : {};
        const r = await runnerContact(String(body.token ?? ''), body.system_id);
        if (!r) return send(res, 403, { message: '403 Forbidden' });
        if (path === '/runners/verify') return send(res, 200, { id: r.id, token: body.token, token_expires_at: null });
        return send(res, 204, undefined, { 'X-GitLab-Last-Update': String(r.updated_at?.getTime?.() ?? '') });
      }
      const actor = await user(req);
      if (!actor) return send(res, 401, { message: '401 Unauthorized' });
      if (path === '/runners/all') {
        const out = await listAll(url);
        return send(res, 200, out.body, out.headers);
      }
      const m = /^\/runners\/(\d+)(\/jobs)?$/.exec(path);
      if (m && !m[2]) {
        const out = await show(Number(m[1]));
        return out ? send(res, 200, out) : send(res, 404, { message: '404 Runner Not Found' });
      }
      if (m && m[2]) {
        const out = await jobs(Number(m[1]), Number(url.searchParams.get('per_page') ?? 20));
        return send(res, 200, out.body, out.headers);
      }
      send(res, 404, { error: '404 Not Found' });
    } catch (err) {
      send(res, 500, { message: String(err) });
    }
  });
  server.on('close', () => void pool.end());
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
