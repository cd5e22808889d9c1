// The /api/v4 scenarios of the runner benchmark and the autocannon load that drives them, shared by
// `npm run bench:runners` (throughput against the bare baseline) and `npm run bench:api-profile` (where
// the CPU of each request goes).
import { createRequire } from 'node:module';
import type { BenchData } from './runners-seed';

// The parts of autocannon's result the figures use (the package ships no types).
type AutocannonResult = { requests: { average: number; total: number }; latency: { p50: number; p90: number; p99: number }; non2xx: number; errors: number };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Runner-facing endpoints authenticate with the runner token in the body; gitlab-runner sends no PRIVATE-TOKEN. */
  runnerAuth?: boolean;
}

/** The scenarios whose name contains `only` (all for ''). */
export function scenarios(d: BenchData, only = ''): Scenario[] {
  const runnerBody = (sys: string) => ({
    token: d.hotRunnerToken,
    system_id: sys,
    info: { name: 'bench', version: '18.1.2', platform: 'linux', architecture: 'amd64' },
  });
  const all: Scenario[] = [
    { name: 'GET /runners/all?per_page=20', method: 'GET', path: '/api/v4/runners/all?per_page=20' },
    { name: 'GET /runners/all?status=online', method: 'GET', path: '/api/v4/runners/all?per_page=20&status=online' },
    { name: `GET /runners/all?tag_list=${d.tag},tag-8`, method: 'GET', path: `/api/v4/runners/all?per_page=20&tag_list=${d.tag},tag-8` },
    { name: 'GET /runners/all?type=group_type', method: 'GET', path: '/api/v4/runners/all?per_page=20&type=group_type' },
    { name: 'GET /runners/:id', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}` },
    { name: 'GET /runners/:id/jobs', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}/jobs?per_page=20` },
    { name: 'POST /runners/verify', method: 'POST', path: '/api/v4/runners/verify', body: runnerBody('s_benchverify1'), runnerAuth: true },
    { name: 'POST /jobs/request', method: 'POST', path: '/api/v4/jobs/request', body: runnerBody('s_benchrequest'), runnerAuth: true },
  ];
  return all.filter((s) => s.name.includes(only));
}

export interface Figures {
  /** CPU time (user + system) of the serving process per request, in ms. */
  cpu?: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
}

export interface LoadOptions {
  duration: number;
  connections: number;
  /** Called with the number of requests completed. */
  total?: (requests: number) => void;
}

export async function load(port: number, s: Scenario, token: string, opts: LoadOptions): Promise<Figures> {
  const headers: Record<string, string> = s.runnerAuth ? {} : { 'PRIVATE-TOKEN': token };
  if (s.body) headers['Content-Type'] = 'application/json';
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${s.path}`,
    method: s.method,
    headers,
    body: s.body ? JSON.stringify(s.body) : undefined,
    connections: opts.connections,
    duration: opts.duration,
  });
  opts.total?.(r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, errors: r.non2xx + r.errors };
}
