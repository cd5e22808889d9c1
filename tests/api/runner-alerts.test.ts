// Fleet alerts (issue 33 part 3, a Runway extension): the rule API (CRUD, validation, 401/403/404 on every
// route), each rule kind firing and clearing against real runners and jobs, the audit events, a disabled
// rule resolving its alert, two checks at once firing once, the webhook (delivered to a stand-in on
// 127.0.0.1, signed, retried with backoff after 500s, given up after the sixth attempt, refused when local
// requests are not allowed) and the metrics. Checks run through `runway fleet-alerts check`, which the
// worker's minute runs too. Every rule is scoped to a tag of its own, so other files' runners do not count.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { setLocalRequests, withLocalRequests } from '../support/local-requests';
import { createProject } from '../support/namespaces';
import { ROOT } from '../support/server';
import { createUser, type TestUser } from '../support/users';
import { standIn, type StandIn } from '../fixtures/stand-ins';
import { createRunner, dbQuery, HOUR, setRunnerTimes } from './runners-admin-support';

const env = () => ({ ...process.env, ...inject('runwayEnv') });
const MINUTE = 60_000;

/** `runway fleet-alerts check`, not blocking this process (two may run at once). */
function check(): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'fleet-alerts', 'check'], { env: env(), cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
  });
}

async function checkNow() {
  const r = await check();
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^checked \d+ rules in [\d.]+ ms: \d+ fired, \d+ cleared/);
}

const root = () => rootToken();
const createRule = async (json: Record<string, unknown>) => {
  const res = await api('POST', '/runners/alert_rules', { token: root(), json });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const getRule = async (id: number) => (await api('GET', `/runners/alert_rules/${id}`, { token: root() })).body;
type Json = any;
const alertsOf = async (ruleId: number): Promise<Json[]> =>
  ((await api('GET', '/runners/alerts', { token: root(), query: { per_page: '100' } })).body as Json[]).filter((a) => a.rule.id === ruleId);
const auditOf = (ruleId: number) =>
  dbQuery<{ event_name: string; details: Record<string, unknown>; author_name: string }>(
    `SELECT event_name, details, author_name FROM audit_events WHERE target_type = 'Runway::FleetAlertRule' AND target_id = $1 ORDER BY id`,
    [ruleId],
  );

/** Polls until `fn` returns something truthy (the worker works on its own schedule). */
async function eventually<T>(fn: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 250));
  }
}

let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  admin = await createUser({ admin: true });
  user = await createUser();
});

describe('fleet alert rules API', () => {
  const RULE_FIELDS = [
    'id',
    'name',
    'kind',
    'threshold',
    'window_minutes',
    'runner_type',
    'tag',
    'enabled',
    'webhook_url',
    'webhook_secret_set',
    'state',
    'last_value',
    'last_checked_at',
    'created_at',
    'updated_at',
  ];

  it('creates a rule with the defaults of its kind, fields in order, the secret never shown', async () => {
    const name = uniq('share');
    // Tagged with a tag no runner has, so the worker's own checks never fire it (nor send to the address, a documentation one).
    const rule = await createRule({
      name,
      kind: 'online_share_below',
      threshold: 80,
      tag: uniq('none'),
      webhook_url: 'https://user:pass@203.0.113.10/hook',
      webhook_secret: 's3cret',
    });
    expect(Object.keys(rule)).toEqual(RULE_FIELDS);
    expect(rule).toMatchObject({
      name,
      kind: 'online_share_below',
      threshold: 80,
      window_minutes: null,
      runner_type: 'instance_type',
      enabled: true,
      webhook_url: 'https://*****:*****@203.0.113.10/hook',
      webhook_secret_set: true,
      state: 'unknown',
      last_value: null,
      last_checked_at: null,
    });
    expect(JSON.stringify(rule)).not.toContain('s3cret');
    const [stored] = await dbQuery<{ webhook_secret_encrypted: string }>('SELECT webhook_secret_encrypted FROM runner_alert_rules WHERE id = $1', [rule.id]);
    expect(stored.webhook_secret_encrypted).toMatch(/^v1:/);
    expect(stored.webhook_secret_encrypted).not.toContain('s3cret');
    const offline = await createRule({ name: uniq('offline'), kind: 'went_offline', threshold: 3 });
    expect(offline).toMatchObject({ window_minutes: 10, runner_type: null });
    const queue = await createRule({ name: uniq('queue'), kind: 'queue_wait_p95_above', threshold: '90.5' });
    expect(queue).toMatchObject({ window_minutes: 60, threshold: 90.5 });
    const audit = await auditOf(rule.id);
    expect(audit.map((a) => a.event_name)).toEqual(['runner_alert_rule_created']);
    expect(audit[0].author_name).toBe('Administrator');
    expect(JSON.stringify(audit[0].details)).not.toContain('s3cret');
    for (const r of [rule, offline, queue]) expect((await api('DELETE', `/runners/alert_rules/${r.id}`, { token: root() })).status).toBe(204);
  });

  it('lists rules in id order with pagination headers; shows, updates and deletes one', async () => {
    const a = await createRule({ name: uniq('a'), kind: 'tag_without_online_runner', tag: uniq('t') });
    const b = await createRule({ name: uniq('b'), kind: 'went_offline', threshold: 1, window_minutes: 30, runner_type: 'group_type', tag: uniq('none') });
    const list = await api('GET', '/runners/alert_rules', { token: root(), query: { per_page: '100' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe(String(list.body.length));
    expect(list.headers.get('x-per-page')).toBe('100');
    const ids = list.body.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(a.threshold).toBeNull();

    expect(await getRule(b.id)).toEqual(b);
    const put = await api('PUT', `/runners/alert_rules/${b.id}`, { token: root(), json: { threshold: 5, webhook_url: 'https://203.0.113.10/x' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      threshold: 5,
      window_minutes: 30,
      runner_type: 'group_type',
      webhook_url: 'https://203.0.113.10/x',
      webhook_secret_set: false,
    });
    const withSecret = await api('PUT', `/runners/alert_rules/${b.id}`, { token: root(), json: { webhook_secret: 'x' } });
    expect(withSecret.body.webhook_secret_set).toBe(true);
    const cleared = await api('PUT', `/runners/alert_rules/${b.id}`, { token: root(), json: { webhook_secret: '' } });
    expect(cleared.body.webhook_secret_set).toBe(false);
    const updated = (await auditOf(b.id)).filter((e) => e.event_name === 'runner_alert_rule_updated');
    expect(updated[0].details.changes).toEqual({ threshold: { from: 1, to: 5 }, webhook_url: { from: null, to: 'https://203.0.113.10/x' } });

    expect((await api('DELETE', `/runners/alert_rules/${b.id}`, { token: root() })).status).toBe(204);
    const gone = await api('GET', `/runners/alert_rules/${b.id}`, { token: root() });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Alert rule Not Found' });
    expect((await auditOf(b.id)).map((e) => e.event_name).at(-1)).toBe('runner_alert_rule_deleted');
    await api('DELETE', `/runners/alert_rules/${a.id}`, { token: root() });
  });

  it('answers 400 with the field or the missing parameter', async () => {
    const post = (json: Record<string, unknown>) => api('POST', '/runners/alert_rules', { token: root(), json });
    expect((await post({ kind: 'went_offline', threshold: 1 })).body).toEqual({ error: 'name is missing' });
    expect((await post({ name: 'x' })).body.error).toMatch(/^kind is missing/);
    expect((await post({ name: 'x', kind: 'nope' })).body).toEqual({ error: 'kind does not have a valid value' });
    expect((await post({ name: 'x', kind: 'went_offline', threshold: 1, runner_type: 'x' })).body).toEqual({
      error: 'runner_type does not have a valid value',
    });
    expect((await post({ name: 'x', kind: 'went_offline', threshold: 'many' })).body).toEqual({ error: 'threshold is invalid' });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ name: ' ', kind: 'went_offline', threshold: 1 }, { name: ["can't be blank"] }],
      [{ name: 'x'.repeat(256), kind: 'went_offline', threshold: 1 }, { name: ['is too long (maximum is 255 characters)'] }],
      [{ name: 'x', kind: 'online_share_below', threshold: 120 }, { threshold: ['must be between 0 and 100'] }],
      [{ name: 'x', kind: 'went_offline' }, { threshold: ["can't be blank"] }],
      [{ name: 'x', kind: 'went_offline', threshold: -1 }, { threshold: ['must be greater than or equal to 0'] }],
      [{ name: 'x', kind: 'went_offline', threshold: 1, window_minutes: 0 }, { window_minutes: ['must be between 1 and 1440'] }],
      [{ name: 'x', kind: 'went_offline', threshold: 1, window_minutes: 1441 }, { window_minutes: ['must be between 1 and 1440'] }],
      [{ name: 'x', kind: 'tag_without_online_runner' }, { tag: ["can't be blank"] }],
      [{ name: 'x', kind: 'went_offline', threshold: 1, webhook_url: 'ftp://203.0.113.10/x' }, { webhook_url: ['is blocked: URI is invalid'] }],
    ];
    for (const [json, message] of cases) {
      const res = await post(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body, JSON.stringify(json)).toEqual({ message });
    }
    // The URL blocker at save: this host is refused while local requests are not allowed.
    await withLocalRequests(false, async () => {
      const res = await post({ name: 'x', kind: 'went_offline', threshold: 1, webhook_url: 'http://127.0.0.1:9999/hook' });
      expect(res.status).toBe(400);
      expect(res.body.message.webhook_url[0]).toMatch(/^is blocked: Requests to (localhost|the local network) are not allowed/);
    });
    const bad = await api('GET', '/runners/alerts', { token: root(), query: { state: 'open' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
    const rule = await createRule({ name: uniq('nohook'), kind: 'went_offline', threshold: 1 });
    const test = await api('POST', `/runners/alert_rules/${rule.id}/test_webhook`, { token: root() });
    expect(test.status).toBe(400);
    expect(test.body).toEqual({ message: { webhook_url: ["can't be blank"] } });
    expect((await api('PUT', `/runners/alert_rules/${rule.id}`, { token: root(), json: { threshold: null } })).body).toEqual({
      message: { threshold: ["can't be blank"] },
    });
    await api('DELETE', `/runners/alert_rules/${rule.id}`, { token: root() });
  });

  it('answers 401 without authentication, 403 to non-admins and 404 for a missing rule, on every route', async () => {
    const rule = await createRule({ name: uniq('perm'), kind: 'went_offline', threshold: 1 });
    const routes: Array<[string, string]> = [
      ['GET', '/runners/alert_rules'],
      ['POST', '/runners/alert_rules'],
      ['GET', `/runners/alert_rules/${rule.id}`],
      ['PUT', `/runners/alert_rules/${rule.id}`],
      ['DELETE', `/runners/alert_rules/${rule.id}`],
      ['GET', `/runners/alert_rules/${rule.id}/deliveries`],
      ['POST', `/runners/alert_rules/${rule.id}/test_webhook`],
      ['GET', '/runners/alerts'],
    ];
    for (const [method, p] of routes) {
      const anonymous = await api(method, p, { json: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' } });
      expect(anonymous.status, `${method} ${p}`).toBe(401);
      expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
      const denied = await api(method, p, { token: user.token, json: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' } });
      expect(denied.status, `${method} ${p}`).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden' });
    }
    for (const [method, p] of routes.filter(([, p]) => p.includes(`/${rule.id}`))) {
      const missing = await api(method, p.replace(`/${rule.id}`, '/2147483000'), { token: admin.token });
      expect(missing.status, `${method} ${p}`).toBe(404);
      expect(missing.body).toEqual({ message: '404 Alert rule Not Found' });
    }
    expect(await getRule(rule.id)).toMatchObject({ id: rule.id });
    await api('DELETE', `/runners/alert_rules/${rule.id}`, { token: root() });
  });
});

// Each check is a `runway` process: on a loaded machine with the embedded database, a few seconds each.
describe('rule checks against real runners and jobs', { timeout: 180_000 }, () => {
  it('online_share_below fires below the share, clears above it; disabling a firing rule resolves its alert', async () => {
    const tag = uniq('share');
    const ids = await Promise.all([0, 1, 2, 3].map(() => createRunner('instance_type', { tags: [tag] })));
    for (const id of ids.slice(0, 3)) await setRunnerTimes(id, { contactedAgoMs: MINUTE });
    await setRunnerTimes(ids[3], { contactedAgoMs: 3 * HOUR });
    const rule = await createRule({ name: uniq('share'), kind: 'online_share_below', threshold: 80, tag });
    await checkNow();
    const fired = await getRule(rule.id);
    expect(fired).toMatchObject({ state: 'firing', last_value: 75 });
    expect(fired.last_checked_at).not.toBeNull();
    expect(fired.updated_at).toBe(rule.updated_at);
    const [alert] = await alertsOf(rule.id);
    expect(Object.keys(alert)).toEqual(['id', 'rule', 'state', 'value', 'threshold', 'message', 'fired_at', 'resolved_at']);
    expect(alert).toMatchObject({
      rule: { id: rule.id, name: rule.name, kind: 'online_share_below' },
      state: 'firing',
      value: 75,
      threshold: 80,
      message: `Online share of instance runners tagged ${tag} is 75 %, below 80 %`,
      resolved_at: null,
    });
    const firing = await api('GET', '/runners/alerts', { token: root(), query: { state: 'firing', per_page: '100' } });
    expect(firing.body.map((a: { id: number }) => a.id)).toContain(alert.id);

    // Still below: no second alert.
    await checkNow();
    expect(await alertsOf(rule.id)).toHaveLength(1);

    // Disabled while firing: resolved now, state unknown, no longer checked.
    const off = await api('PUT', `/runners/alert_rules/${rule.id}`, { token: root(), json: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, state: 'unknown' });
    expect((await alertsOf(rule.id))[0]).toMatchObject({ id: alert.id, state: 'resolved' });
    await checkNow();
    expect((await getRule(rule.id)).state).toBe('unknown');
    const afterDisable = await auditOf(rule.id);
    expect(afterDisable.map((e) => e.event_name)).toEqual([
      'runner_alert_rule_created',
      'runner_alert_fired',
      'runner_alert_rule_updated',
      'runner_alert_cleared',
    ]);
    expect(afterDisable[3].details).toMatchObject({ reason: 'rule disabled', alert_id: alert.id });
    expect(afterDisable[1]).toMatchObject({ author_name: 'Fleet alerts' });
    expect(afterDisable[1].details).toMatchObject({ alert_id: alert.id, kind: 'online_share_below', value: 75, threshold: 80 });

    // Enabled again: fires anew, then clears when the fourth runner is back.
    await api('PUT', `/runners/alert_rules/${rule.id}`, { token: root(), json: { enabled: true } });
    await checkNow();
    expect((await getRule(rule.id)).state).toBe('firing');
    await setRunnerTimes(ids[3], { contactedAgoMs: MINUTE });
    await checkNow();
    expect(await getRule(rule.id)).toMatchObject({ state: 'ok', last_value: 100 });
    const history = await alertsOf(rule.id);
    expect(history.map((a: { state?: string }) => a.state)).toEqual(['resolved', 'resolved']);
    expect((history[0] as { resolved_at: string | null }).resolved_at).not.toBeNull();
    const resolved = await api('GET', '/runners/alerts', { token: root(), query: { state: 'resolved', per_page: '100' } });
    expect(resolved.body.every((a: { state: string }) => a.state === 'resolved')).toBe(true);
    expect((await auditOf(rule.id)).map((e) => e.event_name).slice(-3)).toEqual(['runner_alert_rule_updated', 'runner_alert_fired', 'runner_alert_cleared']);
  });

  it('went_offline fires when more than the threshold crossed the online line in the window', async () => {
    const tag = uniq('off');
    const ids = await Promise.all([0, 1, 2].map(() => createRunner('instance_type', { tags: [tag] })));
    // Contacted 2 h 5 min ago: online until 5 minutes ago, inside a 10-minute window.
    for (const id of ids) await setRunnerTimes(id, { contactedAgoMs: 2 * HOUR + 5 * MINUTE });
    const rule = await createRule({ name: uniq('offline'), kind: 'went_offline', threshold: 2, tag });
    await checkNow();
    expect(await getRule(rule.id)).toMatchObject({ state: 'firing', last_value: 3 });
    expect((await alertsOf(rule.id))[0].message).toBe(`3 runners tagged ${tag} went offline in the last 10 minutes, more than 2`);
    // Half an hour past the line: outside the window.
    for (const id of ids) await setRunnerTimes(id, { contactedAgoMs: 2 * HOUR + 30 * MINUTE });
    await checkNow();
    expect(await getRule(rule.id)).toMatchObject({ state: 'ok', last_value: 0 });
  });

  it('tag_without_online_runner fires while no online active runner has the tag', async () => {
    const tag = uniq('lonely');
    const id = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(id, { contactedAgoMs: 3 * HOUR });
    const paused = await createRunner('instance_type', { tags: [tag], paused: true });
    await setRunnerTimes(paused, { contactedAgoMs: MINUTE });
    const rule = await createRule({ name: uniq('tag'), kind: 'tag_without_online_runner', tag });
    await checkNow();
    expect(await getRule(rule.id)).toMatchObject({ state: 'firing', last_value: 0 });
    expect((await alertsOf(rule.id))[0].message).toBe(`No online runner has the tag ${tag}`);
    await setRunnerTimes(id, { contactedAgoMs: MINUTE });
    await checkNow();
    expect(await getRule(rule.id)).toMatchObject({ state: 'ok', last_value: 1 });
  });

  it('queue_wait_p95_above fires on the jobs that started in the window', async () => {
    const project = await createProject(admin.token);
    const [pipeline] = await dbQuery<{ id: number }>(
      `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, updated_at) VALUES (1, $1, md5(random()::text), 'main', 'success', 'push', now()) RETURNING id`,
      [project.id],
    );
    // 400 jobs that waited 120 days and started a minute ago: far above every other file's jobs' p95.
    const jobs = await dbQuery<{ id: number }>(
      `INSERT INTO ci_builds (project_id, pipeline_id, status, stage, name, ref, created_at, started_at)
       SELECT $1, $2, 'running', 'test', 'wait ' || g, 'main', now() - interval '120 days', now() - interval '1 minute' FROM generate_series(1, 400) g RETURNING id`,
      [project.id, pipeline.id],
    );
    const rule = await createRule({ name: uniq('queue'), kind: 'queue_wait_p95_above', threshold: 5_000_000 });
    await checkNow();
    const fired = await getRule(rule.id);
    expect(fired.state).toBe('firing');
    expect(fired.last_value).toBeGreaterThan(120 * 86_400 - 120);
    expect((await alertsOf(rule.id))[0].message).toMatch(/^Job queue wait p95 is \d+(\.\d)? s over the last 60 minutes, above 5000000 s$/);
    // Started two hours ago: outside the window.
    await dbQuery(`UPDATE ci_builds SET started_at = now() - interval '2 hours' WHERE id = ANY($1::int[])`, [jobs.map((j) => j.id)]);
    await checkNow();
    expect((await getRule(rule.id)).state).toBe('ok');
    await api('DELETE', `/runners/alert_rules/${rule.id}`, { token: root() });
  });

  it('two checks at once fire one alert', async () => {
    const tag = uniq('race');
    const rule = await createRule({ name: uniq('race'), kind: 'tag_without_online_runner', tag });
    const [a, b] = await Promise.all([check(), check()]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect((await getRule(rule.id)).state).toBe('firing');
    expect(await alertsOf(rule.id)).toHaveLength(1);
    expect((await auditOf(rule.id)).filter((e) => e.event_name === 'runner_alert_fired')).toHaveLength(1);
  });
});

describe('webhook deliveries', () => {
  let hook: StandIn;
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string; at: number }> = [];
  let answers: number[] = [];
  const SECRET = 'fleet-alert-test-secret';

  beforeAll(async () => {
    hook = await standIn('127.0.0.1', 0, (req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ headers: req.headers, body, at: Date.now() });
        res.writeHead(answers.shift() ?? 200, { 'Content-Type': 'text/plain' }).end('ok');
      });
    });
  });
  afterAll(async () => {
    await hook?.close();
  });

  const deliveries = async (ruleId: number) => (await api('GET', `/runners/alert_rules/${ruleId}/deliveries`, { token: root() })).body;
  const deliveryWhere = (ruleId: number, pred: (d: Record<string, unknown>) => boolean) =>
    eventually(async () => (await deliveries(ruleId)).find(pred) as Record<string, unknown> | undefined);
  const fastForward = (id: number) => dbQuery(`UPDATE runner_alert_deliveries SET next_attempt_at = now() WHERE id = $1`, [id]);

  it('delivers fired and resolved events, signed; retries 500s with backoff; gives up after six attempts; a blocked URL fails', async () => {
    await withLocalRequests(true, async () => {
      const tag = uniq('hook');
      const url = `http://127.0.0.1:${hook.port}/fleet`;
      const rule = await createRule({ name: uniq('hook'), kind: 'tag_without_online_runner', tag, webhook_url: url, webhook_secret: SECRET });

      // fired: delivered at once by the worker, signed.
      await checkNow();
      const [alert] = await alertsOf(rule.id);
      const fired = await deliveryWhere(rule.id, (d) => d.event === 'fired' && d.status === 'delivered');
      expect(Object.keys(fired)).toEqual([
        'id',
        'alert_id',
        'event',
        'status',
        'attempts',
        'response_status',
        'error',
        'next_attempt_at',
        'created_at',
        'delivered_at',
      ]);
      expect(fired).toMatchObject({ alert_id: (alert as { id: number }).id, attempts: 1, response_status: 200, error: null, next_attempt_at: null });
      const got = received.find((r) => r.headers['x-runway-delivery'] === String(fired.id))!;
      expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'x-runway-event': 'Fleet Alert Hook' });
      expect(got.headers['user-agent']).toMatch(/^Runway\/\S+$/);
      const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-runway-signature']))!;
      expect(sig).not.toBeNull();
      expect(Math.abs(Number(sig[1]) - got.at / 1000)).toBeLessThan(60);
      expect(sig[2]).toBe(createHmac('sha256', SECRET).update(`${sig[1]}.${got.body}`).digest('hex'));
      const body = JSON.parse(got.body);
      expect(Object.keys(body)).toEqual(['object_kind', 'event', 'alert', 'rule', 'instance_url']);
      expect(body).toMatchObject({
        object_kind: 'runner_fleet_alert',
        event: 'fired',
        alert: { id: (alert as { id: number }).id, state: 'firing' },
        instance_url: baseUrl(),
      });
      expect(body.rule).toMatchObject({ id: rule.id, webhook_secret_set: true });
      expect(got.body).not.toContain(SECRET);

      // resolved: the first two answers are 500s, then 200; each retry waits twice as long.
      answers = [500, 500];
      const runner = await createRunner('instance_type', { tags: [tag] });
      await setRunnerTimes(runner, { contactedAgoMs: MINUTE });
      await checkNow();
      // An attempt in flight shows its lease (5 minutes) and the previous answer: wait for the answer recorded.
      const first = await deliveryWhere(rule.id, (d) => d.event === 'resolved' && d.attempts === 1 && d.status === 'pending' && d.response_status === 500);
      expect(first).toMatchObject({ response_status: 500, error: 'the webhook answered 500' });
      const wait1 = Date.parse(first.next_attempt_at as string) - Date.now();
      expect(wait1).toBeGreaterThan(40_000);
      expect(wait1).toBeLessThanOrEqual(60_000);
      await fastForward(first.id as number);
      const second = await deliveryWhere(
        rule.id,
        (d) => d.id === first.id && d.attempts === 2 && d.status === 'pending' && Date.parse(d.next_attempt_at as string) - Date.now() < 150_000,
      );
      const wait2 = Date.parse(second.next_attempt_at as string) - Date.now();
      expect(wait2).toBeGreaterThan(100_000);
      expect(wait2).toBeLessThanOrEqual(120_000);
      await fastForward(first.id as number);
      const third = await deliveryWhere(rule.id, (d) => d.id === first.id && d.status === 'delivered');
      expect(third).toMatchObject({ attempts: 3, response_status: 200, error: null });
      const resolvedBody = JSON.parse(received.at(-1)!.body);
      expect(resolvedBody).toMatchObject({ event: 'resolved', alert: { state: 'resolved' } });

      // A test delivery; then one answered 500 on its sixth attempt is given up.
      answers = [];
      const test = await api('POST', `/runners/alert_rules/${rule.id}/test_webhook`, { token: root() });
      expect(test.status).toBe(201);
      expect(test.body).toMatchObject({ event: 'test', status: 'pending', alert_id: null, attempts: 0 });
      await deliveryWhere(rule.id, (d) => d.id === test.body.id && d.status === 'delivered');
      const testBody = JSON.parse(received.at(-1)!.body);
      expect(testBody).toMatchObject({ event: 'test', alert: { id: null, rule: { id: rule.id } } });
      // A delivery five attempts old (as the worker leaves one after five failures), due now: the sweep's sixth attempt.
      answers = [500];
      const [again] = await dbQuery<{ id: number }>(
        `INSERT INTO runner_alert_deliveries (rule_id, event, body, attempts, next_attempt_at) VALUES ($1, 'test', '{}', 5, now()) RETURNING id`,
        [rule.id],
      );
      const given = await deliveryWhere(rule.id, (d) => d.id === again.id && d.status !== 'pending');
      expect(given).toMatchObject({ status: 'failed', attempts: 6, response_status: 500, next_attempt_at: null, delivered_at: null });
      answers = [];

      // Local requests turned off after the rule was saved: the delivery fails at once, saying why.
      await setLocalRequests(false);
      const before = received.length;
      const blocked = (await api('POST', `/runners/alert_rules/${rule.id}/test_webhook`, { token: root() })).body;
      const failed = await deliveryWhere(rule.id, (d) => d.id === blocked.id && d.status !== 'pending');
      expect(failed).toMatchObject({ status: 'failed', attempts: 1, response_status: null });
      expect(failed.error).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${hook.port}/fleet is blocked: Requests to (localhost|the local network) are not allowed`),
      );
      expect(received.length).toBe(before);

      // The history is newest first.
      const list = await deliveries(rule.id);
      expect(list.map((d: { id: number }) => d.id)).toEqual([...list.map((d: { id: number }) => d.id)].sort((x: number, y: number) => y - x));
    });
  }, 240_000);
});

describe('metrics', { timeout: 60_000 }, () => {
  it('shows each enabled rule firing or not, its value, the check time and the webhook attempts', async () => {
    const tag = uniq('metric');
    const rule = await createRule({ name: uniq('metric'), kind: 'tag_without_online_runner', tag });
    await checkNow();
    const text = await (await fetch(`${baseUrl().replace(/\/api\/v4$/, '')}/-/metrics`)).text();
    const labels = `rule_id="${rule.id}",rule_name="${rule.name}",kind="tag_without_online_runner"`;
    expect(text).toContain(`runway_fleet_alert_firing{${labels}} 1`);
    expect(text).toContain(`runway_fleet_alert_value{${labels}} 0`);
    expect(text).toMatch(/^runway_fleet_alert_check_seconds_count \d+$/m);
    expect(text).toMatch(/^runway_fleet_alert_webhook_deliveries_total\{status="delivered"\} [1-9]\d*$/m);
    await api('PUT', `/runners/alert_rules/${rule.id}`, { token: root(), json: { enabled: false } });
    const after = await (await fetch(`${baseUrl().replace(/\/api\/v4$/, '')}/-/metrics`)).text();
    expect(after).not.toContain(`rule_id="${rule.id}"`);
  });
});
