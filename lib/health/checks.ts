// GitLab's health endpoints, answered by the http wrapper before Next.js (as GitLab's BasicHealthCheck
// middleware answers /-/health before Rails), to clients on the monitoring allowlist only:
// - /-/health: `GitLab OK` while the process serves HTTP;
// - /-/liveness: `{"status":"ok"}` while the process serves HTTP;
// - /-/readiness: the instance's own check (`master_check`: fails while it drains for a shutdown), and
//   with `?all=1` also PostgreSQL (`db_check`). A load balancer probes the instance check only, so a short
//   database blip does not take every instance out of rotation at once.
// Bodies and statuses are GitLab's (Gitlab::HealthChecks::Probes::Collection): 200 or 503 with
// `X-GitLab-Custom-Error: 1` on failure.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { db } from '../db/client';
import { HEALTH_PATH, LIVENESS_PATH, monitoringClientAllowed, READINESS_PATH, refusedMethod, refuseMonitoringClient } from '../metrics/monitoring';

/** GitLab's DbCheck gives up after 10 seconds. */
const DB_CHECK_TIMEOUT_MS = 10_000;

interface CheckResult {
  status: 'ok' | 'failed';
  message?: string;
}

const ok: CheckResult = { status: 'ok' };

export function isHealthPath(path: string): boolean {
  return path === HEALTH_PATH || path === LIVENESS_PATH || path === READINESS_PATH;
}

async function dbCheck(): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'failed', message: 'Db check timed out' }), DB_CHECK_TIMEOUT_MS);
  });
  const check = db().$queryRaw`SELECT 1`.then(() => ok).catch((): CheckResult => ({ status: 'failed', message: 'database is not reachable' }));
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface InstanceState {
  /** A shutdown has begun: the load balancer should stop sending (lib/server/drain). */
  draining: boolean;
  /** Still loading its routes after the start (lib/server/warm-up): not ready yet. */
  warming?: boolean;
}

/** The readiness body and status: the instance check, and the database's with `all`. */
export async function readiness(instance: InstanceState, all: boolean): Promise<{ status: number; body: Record<string, unknown> }> {
  const checks: Record<string, CheckResult[]> = {
    master_check: [instance.draining ? { status: 'failed', message: 'shutting down' } : instance.warming ? { status: 'failed', message: 'warming up' } : ok],
  };
  if (all) checks.db_check = [await dbCheck()];
  const success = Object.values(checks).every((results) => results.some((r) => r.status === 'ok'));
  return { status: success ? 200 : 503, body: { status: success ? 'ok' : 'failed', ...checks } };
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...extra });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Serves one of the health paths (`isHealthPath`). */
export async function serveHealth(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  peerAddress: string | undefined,
  instance: InstanceState,
): Promise<void> {
  if (!monitoringClientAllowed(peerAddress)) return refuseMonitoringClient(res);
  if (refusedMethod(req.method, res)) return;
  if (path === HEALTH_PATH) return answer(req, res, 200, 'text/plain', 'GitLab OK');
  if (path === LIVENESS_PATH) return answer(req, res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
  // Rails treats any value of `all` as set, `?all=0` included.
  const all = new URL(req.url ?? '/', 'http://localhost').searchParams.has('all');
  const result = await readiness(instance, all);
  answer(req, res, result.status, 'application/json', JSON.stringify(result.body), result.status === 200 ? {} : { 'X-GitLab-Custom-Error': '1' });
}
