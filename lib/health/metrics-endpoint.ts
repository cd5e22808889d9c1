// GET /-/metrics (GitLab's path): Prometheus's text format, for addresses on the monitoring allowlist.
// Served by the custom server beside Next.js, so a scrape never waits behind page rendering.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logError } from '../log/log';
import { refreshGauges } from './gauges';
import { monitoringClientAllowed, refusedMethod, refuseMonitoringClient } from '../metrics/monitoring';
import { metrics } from '../metrics/registry';

export { METRICS_PATH } from '../metrics/monitoring';

export async function serveMetrics(req: IncomingMessage, res: ServerResponse, peerAddress: string | undefined): Promise<void> {
  if (!monitoringClientAllowed(peerAddress)) return refuseMonitoringClient(res);
  if (refusedMethod(req.method, res)) return;
  const { registry } = metrics();
  try {
    await refreshGauges();
    metrics().databaseUp.set(1);
  } catch (err) {
    metrics().databaseUp.set(0);
    // A database outage must not hide the process metrics that help diagnose it.
    logError('metrics: database gauges unavailable', err);
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', registry.contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : await registry.metrics());
}
