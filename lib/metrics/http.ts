// Request metrics for the custom server: in-flight requests and a duration histogram labelled by route
// template (not URL) and status. Requests that turn long-lived on purpose (a held runner poll, an event
// stream) leave both at that moment: their own gauges and histogram count them (lib/metrics/registry).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/paths';
import { currentRequest } from '../observability/request-context';
import { MONITORING_PATHS } from './monitoring';
import { metrics } from './registry';
import { matchTemplate, scanTemplates } from './routes';

let templates: ReturnType<typeof scanTemplates> | undefined;

/** The app/ sources in a checkout; a packaged Runway has only the build, whose server/app has the same folders. */
function appDir(): string {
  const sources = path.join(projectRoot(), 'app');
  return existsSync(sources) ? sources : path.join(projectRoot(), process.env.RUNWAY_DIST_DIR || '.next', 'server', 'app');
}

/** The route template a path is served by (`/api/v4/runners/:id`): the metrics' and the request log's `route`. */
export function routeLabel(urlPath: string): string {
  // Next.js's own assets are one label: their paths are build hashes.
  if (urlPath.startsWith('/_next/')) return '/_next/*';
  templates ??= scanTemplates(appDir(), MONITORING_PATHS);
  return matchTemplate(templates, urlPath);
}

/**
 * Starts timing a request; the series is recorded when the response finishes or the client goes away.
 * Call it inside the request's context (lib/observability/request-context).
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse, urlPath: string): void {
  const m = metrics();
  const context = currentRequest();
  const started = process.hrtime.bigint();
  m.httpInFlight.inc();
  let inFlight = true;
  const leaveInFlight = () => {
    if (!inFlight) return;
    inFlight = false;
    m.httpInFlight.dec();
  };
  if (context) context.onLongLived = leaveInFlight;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    leaveInFlight();
    if (context?.longLived) return;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    m.httpDuration.observe({ method: req.method ?? 'GET', route: routeLabel(urlPath), status: String(res.statusCode) }, seconds);
  };
  res.once('finish', end);
  res.once('close', end);
}
