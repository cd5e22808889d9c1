// `runway start`: choose the database, migrate (under an advisory lock), bootstrap root and the demo,
// then serve Next.js behind a thin http wrapper that adds request ids and structured request logs.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import next from 'next';
import { readEnv, externalUrl } from '../config/env';
import { projectRoot } from '../config/paths';
import { applyMigrations } from '../db/migrations';
import { disconnectDb } from '../db/client';
import { bootstrap } from './bootstrap';
import { resolveDatabase, publishDatabase } from './database';
import { log, logError } from './log';
import { PEER_ADDRESS_HEADER } from '../rate-limits/client-ip';
import { redactPath } from './redact';
import { answerClientError, capUndeclaredBody, declaredTooLarge, hasDotSegment, isApiPath, malformedPath, refuse, requestTimeouts } from './guards';
import { isDatabaseUnavailable } from '../db/unavailable';
import { startMessage } from './start-message';
import { fastPathHandler, serveFastPath } from '../runner-agent/fast-path';
import { releaseHeldPolls } from '../runner-agent/long-poll';
import { closeHub } from '../notifications/hub';
import { closeEventStreams } from '../api/sse';
import { observeRequest } from '../metrics/http';
import { METRICS_PATH, serveMetrics } from '../metrics/endpoint';

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** Migrations, root and (optionally) the demo: everything that must hold before serving. */
export async function prepareDatabase(opts: { demo: boolean }) {
  const database = await resolveDatabase();
  publishDatabase(database);
  const applied = await applyMigrations(database.url, { lock: !database.embedded });
  if (applied.length) log('info', 'migrations applied', { migrations: applied });
  const boot = await bootstrap();
  if (opts.demo) {
    const { seedDemo } = await import('../seed/demo');
    await seedDemo();
  }
  return { database, boot };
}

export async function start(opts: { dev: boolean }): Promise<void> {
  const env = readEnv();
  process.env.NEXTAUTH_URL ??= externalUrl();
  const { database, boot } = await prepareDatabase({ demo: env.RUNWAY_DEMO });
  await database.advertise(); // from here on, `runway` commands work through this process's database
  (await import('../background/worker')).startBackgroundWorker(); // repository imports and other queued jobs

  const app = next({ dev: opts.dev, dir: projectRoot(), hostname: env.HOST, port: env.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();

  const server = http.createServer(requestTimeouts(env.RUNWAY_REQUEST_TIMEOUT_SECONDS), (req, res) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID().replace(/-/g, '');
    res.setHeader('X-Request-Id', requestId);
    // The socket's address for per-IP rate limits, overwriting whatever a client sent under this name.
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
    // The path only: query strings may carry private_token; a token pasted into the path is filtered.
    const path = (req.url ?? '/').split('?')[0];
    observeRequest(req, res, path);
    res.on('finish', () => {
      if (path.startsWith('/_next/')) return;
      log('info', 'request', {
        method: req.method,
        path: redactPath(path),
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        request_id: requestId,
      });
    });
    if (isApiPath(path) && malformedPath(path)) return refuse(res, 400);
    if (isApiPath(path) && hasDotSegment(path)) return refuse(res, 404);
    if (declaredTooLarge(req)) return refuse(res, 413);
    if (!path.startsWith('/api/v4/')) capUndeclaredBody(req);
    if (path === METRICS_PATH) {
      serveMetrics(req, res, req.socket.remoteAddress).catch((err: unknown) => {
        logError('metrics failed', err, { request_id: requestId });
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
      return;
    }
    const failed = (err: unknown) => {
      const unavailable = isDatabaseUnavailable(err);
      logError(unavailable ? 'database unavailable' : 'request failed', err, { request_id: requestId, path: redactPath(path) });
      if (!res.headersSent) {
        res.statusCode = unavailable ? 503 : 500;
        res.setHeader('Content-Type', 'application/json');
      }
      res.end(JSON.stringify({ message: unavailable ? '503 Service Unavailable' : '500 Internal Server Error' }));
    };
    const fast = env.RUNWAY_RUNNER_FAST_PATH ? fastPathHandler(req.method, path) : undefined;
    if (fast) return void serveFastPath(req, res, fast).catch(failed);
    handle(req, res).catch(failed);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const status = answerClientError(err, socket);
    if (status) log('info', 'request refused by the http parser', { status, code: err.code });
  });
  // Node closes an idle keep-alive socket after 5 s, racing clients that reuse it at that moment (reset
  // requests). Longer than the usual load balancer's 60 s, so the proxy, not Runway, ends idle connections.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));

  const facts = { url: externalUrl(), embedded: database.embedded, generatedRootPassword: boot.generatedRootPassword, demo: env.RUNWAY_DEMO };
  console.log(`\n${startMessage(facts)}\n`);

  const stop = async () => {
    // Held runner polls are answered and event streams ended now (either would hold server.close()
    // forever; their clients come back, to this instance or another), so closing waits only for requests
    // already being served.
    releaseHeldPolls();
    closeEventStreams();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      setTimeout(resolve, 5_000).unref();
    });
    await closeHub().catch(() => undefined);
    await disconnectDb().catch(() => undefined);
    await database.stop().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
