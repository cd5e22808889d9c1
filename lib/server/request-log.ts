// One JSON line per request, with the fields of GitLab's api_json.log: what was asked (method, path
// without its query string, route template), by whom (remote_ip through the trusted proxies, ua, and
// user_id/username when the API authenticated someone), how it went (status, duration_s, db_duration_s,
// db_count) and correlation_id (the X-Request-Id). Never a token: query strings are not logged and
// token-shaped path segments are filtered (lib/log/redact). RUNWAY_REQUEST_LOG sends it with the other log
// lines (stdout), to a file (JSON lines, whatever RUNWAY_LOG_FORMAT is, for tools to read), or nowhere.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { dataDir, projectRoot } from '../config/paths';
import { routeLabel } from '../metrics/http';
import { currentRequest } from '../observability/request-context';
import { incomingClientIp } from '../rate-limits/client-ip';
import { log, logEnabled } from '../log/log';
import { redactPath } from '../log/redact';

/** nginx's status for a request whose client went away before the answer was complete. */
const CLIENT_CLOSED_REQUEST = 499;

const round = (s: number) => Math.round(s * 1e6) / 1e6;

type Sink = { kind: 'stdout' } | { kind: 'off' } | { kind: 'file'; file: string; stream: WriteStream };
let sink: Sink | undefined;

/** The file RUNWAY_REQUEST_LOG names: `file` is log/requests.log in the data folder; null for stdout and off. */
export function requestLogFile(setting = process.env.RUNWAY_REQUEST_LOG?.trim() || 'stdout'): string | null {
  if (setting === 'stdout' || setting === 'off') return null;
  return setting === 'file' ? path.join(dataDir(), 'log', 'requests.log') : path.resolve(projectRoot(), setting);
}

function requestSink(): Sink {
  if (sink) return sink;
  const setting = process.env.RUNWAY_REQUEST_LOG?.trim() || 'stdout';
  const file = requestLogFile(setting);
  if (!file) return (sink = { kind: setting === 'off' ? 'off' : 'stdout' });
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  // A full disk or a removed folder loses request lines, never the server.
  stream.on('error', (err) => log('warn', 'the request log file cannot be written', { file, error: err.message }));
  return (sink = { kind: 'file', file, stream });
}

function writeEntry(fields: Record<string, unknown>): void {
  const to = requestSink();
  if (to.kind === 'off') return;
  if (to.kind === 'stdout') log('info', 'request', fields);
  else to.stream.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'request', ...fields })}\n`);
}

/**
 * Logs the request when its answer is complete, or when the client leaves first (status 499). Call it
 * inside the request's context (lib/observability/request-context), after the peer address is set.
 */
export function logRequest(req: http.IncomingMessage, res: http.ServerResponse, path: string, correlationId: string): void {
  if (path.startsWith('/_next/')) return;
  const started = process.hrtime.bigint();
  const context = currentRequest();
  let logged = false;
  const write = () => {
    if (logged || !logEnabled('info')) return;
    logged = true;
    const user = context?.user;
    writeEntry({
      method: req.method,
      path: redactPath(path),
      status: res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST,
      duration_s: round(Number(process.hrtime.bigint() - started) / 1e9),
      db_duration_s: round(context?.dbSeconds ?? 0),
      db_count: context?.dbCount ?? 0,
      remote_ip: incomingClientIp(req),
      ua: req.headers['user-agent'] ?? '',
      route: routeLabel(path),
      ...(user ? { user_id: user.id, username: user.username } : {}),
      correlation_id: correlationId,
    });
  };
  res.once('finish', write);
  res.once('close', write);
}
