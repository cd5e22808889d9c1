// The monitoring endpoints (GitLab's paths), which the http wrapper answers before Next.js, and who may
// read them: GitLab's monitoring allowlist (RUNWAY_MONITORING_ALLOWLIST, loopback when unset), decided on
// the socket's address, never on a header a client can set. Others get GitLab's answer: a 404 that does
// not tell them the endpoint exists.
import type { ServerResponse } from 'node:http';
import { DEFAULT_MONITORING_ALLOWLIST, isAllowed, parseAllowlist } from '../config/monitoring-allowlist';

export const METRICS_PATH = '/-/metrics';
export const HEALTH_PATH = '/-/health';
export const LIVENESS_PATH = '/-/liveness';
export const READINESS_PATH = '/-/readiness';
export const MONITORING_PATHS = [METRICS_PATH, HEALTH_PATH, LIVENESS_PATH, READINESS_PATH] as const;

let allowlist: ReturnType<typeof parseAllowlist> | undefined;

export function monitoringClientAllowed(peerAddress: string | undefined): boolean {
  allowlist ??= parseAllowlist(process.env.RUNWAY_MONITORING_ALLOWLIST || DEFAULT_MONITORING_ALLOWLIST);
  return isAllowed(allowlist, peerAddress);
}

/** GitLab's answer to a client outside the allowlist (BasicHealthCheck's): 404, an empty plain-text body. */
export function refuseMonitoringClient(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': 0, 'Cache-Control': 'no-store' });
  res.end();
}

/** GET and HEAD only; anything else is answered 405 here. Returns whether the method was refused. */
export function refusedMethod(method: string | undefined, res: ServerResponse): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const body = JSON.stringify({ message: '405 Method Not Allowed' });
  res.writeHead(405, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Allow: 'GET, HEAD', 'Cache-Control': 'no-store' });
  res.end(body);
  return true;
}
