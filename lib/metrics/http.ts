// Request metrics for the custom server: in-flight requests and a duration histogram labelled by route
// template (not URL) and status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/paths';
import { metrics } from './registry';
import { matchTemplate, scanTemplates } from './routes';

let templates: ReturnType<typeof scanTemplates> | undefined;

/** The app/ sources in a checkout; a packaged Runway has only the build, whose server/app has the same folders. */
function appDir(): string {
  const sources = path.join(projectRoot(), 'app');
  return existsSync(sources) ? sources : path.join(projectRoot(), process.env.RUNWAY_DIST_DIR || '.next', 'server', 'app');
}

/** Starts timing a request; the series is recorded when the response finishes or the client goes away. */
export function observeRequest(req: IncomingMessage, res: ServerResponse, urlPath: string): void {
  const m = metrics();
  const started = process.hrtime.bigint();
  m.httpInFlight.inc();
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    m.httpInFlight.dec();
    // Next.js's own assets are one label: their paths are build hashes.
    templates ??= scanTemplates(appDir());
    const route = urlPath.startsWith('/_next/') ? '/_next/*' : matchTemplate(templates, urlPath);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    m.httpDuration.observe({ method: req.method ?? 'GET', route, status: String(res.statusCode) }, seconds);
  };
  res.once('finish', end);
  res.once('close', end);
}
