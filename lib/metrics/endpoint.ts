// GET /-/metrics (GitLab's path): Prometheus's text format, for addresses on the monitoring allowlist.
// Served by the custom server beside Next.js, so a scrape never waits behind page rendering.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logError } from '../server/log';
import { DEFAULT_MONITORING_ALLOWLIST, isAllowed, parseAllowlist } from './allowlist';
import { refreshGauges } from './collect';
import { metrics } from './registry';

export const METRICS_PATH = '/-/metrics';

let allowlist: ReturnType<typeof parseAllowlist> | undefined;

function json(res: ServerResponse, status: number, body: object, head = false) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(head ? undefined : JSON.stringify(body));
}

export async function serveMetrics(req: IncomingMessage, res: ServerResponse, peerAddress: string | undefined): Promise<void> {
  allowlist ??= parseAllowlist(process.env.RUNWAY_MONITORING_ALLOWLIST || DEFAULT_MONITORING_ALLOWLIST);
  if (!isAllowed(allowlist, peerAddress)) return json(res, 403, { message: '403 Forbidden' });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return json(res, 405, { message: '405 Method Not Allowed' });
  }
  const { registry } = metrics();
  try {
    await refreshGauges();
  } catch (err) {
    // A database outage must not hide the process metrics that help diagnose it.
    logError('metrics: database gauges unavailable', err);
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', registry.contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : await registry.metrics());
}
