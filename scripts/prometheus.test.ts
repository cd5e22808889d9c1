// The monitoring that ships with Runway: the alert rules pass `promtool check rules` and their unit tests
// (`promtool test rules`), name only metrics Runway exports, and reach Kubernetes unchanged as the
// PrometheusRule; the Grafana dashboard queries the same metrics.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { metrics } from '../lib/metrics/registry';

const ROOT = path.resolve(import.meta.dirname, '..');
const RULES_DIR = path.join(ROOT, 'deploy', 'prometheus');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const which = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || undefined;
const promtool = which('promtool');
if (!promtool && process.env.CI) throw new Error('promtool is not installed (CI needs it: .ci/run)');
const kubectl = which('kubectl');

/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML and JSON are checked field by field */
type Obj = Record<string, any>;
const rules = parse(read('deploy/prometheus/runway.rules.yml')) as Obj;
const dashboard = JSON.parse(read('deploy/grafana/runway-dashboard.json')) as Obj;

/** Series names in a PromQL expression: what is left after label matchers, ranges, grouping clauses and functions. */
function seriesNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\w+/g, ' ');
  const words = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g) ?? [];
  return words.filter((w) => !['and', 'or', 'unless'].includes(w) && !/\($/.test(w));
}

async function exported(): Promise<Set<string>> {
  const names = new Set<string>(['up']);
  for (const m of await metrics().registry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(m.name + suffix);
  }
  return names;
}

describe.skipIf(!promtool)('the Prometheus alert rules', () => {
  it('pass promtool check rules', () => {
    const r = spawnSync(promtool!, ['check', 'rules', 'runway.rules.yml'], { cwd: RULES_DIR, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('pass their unit tests (promtool test rules): each fires on its failure and not on a healthy fleet', () => {
    const r = spawnSync(promtool!, ['test', 'rules', 'runway.rules.test.yml'], { cwd: RULES_DIR, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});

describe('the shipped monitoring', () => {
  const alerts = rules.groups.flatMap((g: Obj) => g.rules) as Obj[];

  it('alerts on the failures an operator must hear about', () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual([
      'RunwayDatabasePoolExhausted',
      'RunwayDatabaseUnreachable',
      'RunwayFleetAlertChecksStalled',
      'RunwayFleetAlertFiring',
      'RunwayFleetAlertWebhookFailing',
      'RunwayFleetOnlineShareDropping',
      'RunwayHeldPollsRefused',
      'RunwayHighErrorRatio',
      'RunwayInstanceDown',
      'RunwayJobQueueBacklog',
      'RunwayRunnersOfflineInBulk',
    ]);
    for (const a of alerts) expect(a.labels.severity, a.alert).toMatch(/^(warning|critical)$/);
  });

  it('names only metrics Runway exports, in the rules and the Grafana dashboard alike', async () => {
    const known = await exported();
    const exprs = [...alerts.map((a) => a.expr as string), ...dashboard.panels.flatMap((p: Obj) => p.targets.map((t: Obj) => t.expr as string))];
    const used = new Set(exprs.flatMap(seriesNames));
    expect(used).toEqual(new Set([...used, 'up', 'runway_database_up', 'runway_db_pool_max_connections', 'http_request_duration_seconds_count']));
    expect([...used].filter((n) => !known.has(n))).toEqual([]);
  });

  it.skipIf(!kubectl)('reaches Kubernetes as a PrometheusRule with the same groups and a ServiceMonitor on /-/metrics', () => {
    const r = spawnSync(kubectl!, ['kustomize', path.join(ROOT, 'deploy', 'kubernetes', 'prometheus-operator')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const objects = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
    const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
    expect(rule.spec.groups).toEqual(rules.groups);
    const monitor = objects.find((o) => o.kind === 'ServiceMonitor')!;
    const service = objects.find((o) => o.kind === 'Service')!;
    expect(Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => service.metadata.labels[k] === v)).toBe(true);
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/-/metrics' })]);
    // The rules select job="runway": the job label comes from the Service's name label.
    expect(service.metadata.labels[monitor.spec.jobLabel]).toBe('runway');
  });
});
