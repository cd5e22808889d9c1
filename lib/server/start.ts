// `runway start`: choose the database, migrate (under an advisory lock), bootstrap root and the demo,
// then serve Next.js behind a thin http wrapper that adds request ids, structured request logs, the
// monitoring endpoints and a graceful drain on SIGTERM.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import next from 'next';
import { configuredSecret, readEnv, externalUrl } from '../config/env';
import { projectRoot } from '../config/paths';
import { applyMigrations } from '../db/migrations';
import { disconnectDb } from '../db/client';
import { bootstrap } from './bootstrap';
import { ensureAuthSecret } from './secret';
import { resolveDatabase, publishDatabase } from './database';
import { log, logError } from '../log/log';
import { assignClientIp } from '../rate-limits/client-ip';
import { redactPath } from '../log/redact';
import { logRequest, requestLogFile } from './request-log';
import { installDrain } from './drain';
import { withRequestContext } from '../observability/request-context';
import { isHealthPath, serveHealth } from '../health/checks';
import { securityHeaders, setSecurityHeaders } from './security-headers';
import { applyCors } from './cors';
import { deferHeaderFlush } from './header-flush';
import {
  answerClientError,
  capUndeclaredBody,
  declaredTooLarge,
  hasDotSegment,
  isJsonPath,
  malformedPath,
  refuse,
  requestTimeouts,
  squeezedApiUrl,
} from './guards';
import { isDatabaseUnavailable } from '../db/unavailable';
import { announceStart } from './announce';
import { fastPathHandler, serveFastPath } from '../runner-agent/fast-path';
import { closeHub } from '../notifications/hub';
import { observeRequest } from '../metrics/http';
import { METRICS_PATH, serveMetrics } from '../health/metrics-endpoint';
import { WARM_UP_REQUEST_ID, warmUp } from './warm-up';
import { monitoringClientAllowed } from '../metrics/monitoring';

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** Migrations, root and (optionally) the demo: everything that must hold before serving. */
export async function prepareDatabase(opts: { demo: boolean }) {
  const database = await resolveDatabase();
  publishDatabase(database);
  const applied = await applyMigrations(database.directUrl, { lock: !database.embedded });
  if (applied.length) log('info', 'migrations applied', { migrations: applied });
  const boot = await bootstrap();
  await ensureAuthSecret();
  if (opts.demo) {
    const { seedDemo } = await import('../seed/demo');
    await seedDemo();
  }
  return { database, boot };
}

/** Why a listen failed, in words an operator acts on (the port is taken, the address is not this host's). */
export class ListenError extends Error {
  constructor(
    readonly code: string | undefined,
    host: string,
    port: number,
  ) {
    const why: Record<string, string> = {
      EADDRINUSE: 'the port is in use by another process',
      EADDRNOTAVAIL: "the address is not one of this host's (HOST)",
      EACCES: 'permission denied (a port below 1024 needs privileges)',
    };
    super(`cannot listen on ${host}:${port}: ${why[code ?? ''] ?? 'listen failed'} (${code ?? 'unknown error'})`);
  }
}

/** server.listen, failing with a ListenError instead of an unhandled 'error' event that leaves no listener. */
function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => reject(new ListenError(err.code, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

export async function start(opts: { dev: boolean; banner: boolean }): Promise<void> {
  const env = readEnv();
  process.env.NEXTAUTH_URL ??= externalUrl();
  // Read before prepareDatabase, which moves a configured secret to NEXTAUTH_SECRET.
  if (!opts.dev && !env.RUNWAY_DEMO && configuredSecret(env) === undefined) {
    log(
      'warn',
      'no RUNWAY_SECRET or RUNWAY_SECRET_FILE: sessions are signed with a secret generated into the database, so a copy of the database can sign them',
      {
        fix: 'set RUNWAY_SECRET_FILE to a file of 32 or more random characters, mode 0600 (docs/configuration.md)',
      },
    );
  }
  const { database, boot } = await prepareDatabase({ demo: env.RUNWAY_DEMO });
  await database.advertise(); // from here on, `runway` commands work through this process's database
  const stopWorker = (await import('../worker/worker')).startBackgroundWorker(); // repository imports and other queued jobs

  const app = next({ dev: opts.dev, dir: projectRoot(), hostname: env.HOST, port: env.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();

  const hardening = securityHeaders(externalUrl());
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    setSecurityHeaders(res, hardening); // before anything can answer: every response carries them
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID().replace(/-/g, '');
    res.setHeader('X-Request-Id', requestId);
    // The client's address, decided here once for every consumer (RUNWAY_TRUSTED_PROXIES).
    assignClientIp(req, env.RUNWAY_TRUSTED_PROXIES);
    req.url = squeezedApiUrl(req.url ?? '/') ?? req.url;
    // The path only: query strings may carry private_token; a token pasted into the path is filtered.
    const path = (req.url ?? '/').split('?')[0];
    // The monitoring system's probes and this process's warm-up are not traffic: they stay out of the request
    // log and histogram. A refused probe (a client outside the allowlist) is logged like any request.
    const quiet = (isHealthPath(path) && monitoringClientAllowed(req.socket.remoteAddress)) || (instance.warming === true && requestId === WARM_UP_REQUEST_ID);
    if (!quiet) {
      observeRequest(req, res, path);
      logRequest(req, res, path, requestId);
    }
    // Before the refusals below, so that a browser on an allowed origin can read those too.
    if (applyCors(req, res, path, env.RUNWAY_CORS_ORIGINS)) return;
    if (isJsonPath(path) && malformedPath(path)) return refuse(res, 400);
    if (isJsonPath(path) && hasDotSegment(path)) return refuse(res, 404);
    if (declaredTooLarge(req)) return refuse(res, 413);
    if (!path.startsWith('/api/v4/')) capUndeclaredBody(req);
    if (path === METRICS_PATH) {
      serveMetrics(req, res, req.socket.remoteAddress).catch((err: unknown) => {
        logError('metrics failed', err, { correlation_id: requestId });
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
      return;
    }
    const failed = (err: unknown) => {
      const unavailable = isDatabaseUnavailable(err);
      logError(unavailable ? 'database unavailable' : 'request failed', err, { correlation_id: requestId, path: redactPath(path) });
      if (!res.headersSent) {
        res.statusCode = unavailable ? 503 : 500;
        res.setHeader('Content-Type', 'application/json');
      }
      res.end(JSON.stringify({ message: unavailable ? '503 Service Unavailable' : '500 Internal Server Error' }));
    };
    if (isHealthPath(path)) return void serveHealth(req, res, path, req.socket.remoteAddress, instance).catch(failed);
    const fast = env.RUNWAY_RUNNER_FAST_PATH ? fastPathHandler(req.method, path) : undefined;
    if (fast) return void serveFastPath(req, res, fast).catch(failed);
    deferHeaderFlush(res); // the headers leave with the body: one write for a JSON answer, not two
    handle(req, res).catch(failed);
  };
  // Every request runs in its own context: its database time and user reach its log line.
  const server = http.createServer(requestTimeouts(env.RUNWAY_REQUEST_TIMEOUT_SECONDS), withRequestContext(serve));
  // SIGTERM and SIGINT drain the instance; readiness fails from the first signal on.
  const instance = installDrain({
    server,
    blackoutSeconds: env.RUNWAY_SHUTDOWN_BLACKOUT_SECONDS,
    timeoutSeconds: env.RUNWAY_SHUTDOWN_TIMEOUT_SECONDS,
    stopWorker,
    release: async () => {
      await closeHub().catch(() => undefined);
      await disconnectDb().catch(() => undefined);
      await database.stop().catch(() => undefined);
    },
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const status = answerClientError(err, socket);
    if (status) log('info', 'request refused by the http parser', { status, code: err.code });
  });
  // Node closes an idle keep-alive socket after 5 s, racing clients that reuse it at that moment (reset
  // requests). Longer than the usual load balancer's 60 s, so the proxy, not Runway, ends idle connections.
  server.keepAliveTimeout = 65_000;
  instance.warming = true;
  try {
    await listen(server, env.PORT, env.HOST);
  } catch (err) {
    // Nothing to drain: free the database (the embedded one's lock) so the caller can exit at once.
    await stopWorker().catch(() => undefined);
    await closeHub().catch(() => undefined);
    await disconnectDb().catch(() => undefined);
    await database.stop().catch(() => undefined);
    throw err;
  }
  const warmed = await warmUp(server);
  instance.warming = false;
  log('info', 'routes warmed up', { routes: warmed });

  const facts = {
    url: externalUrl(),
    embedded: database.embedded,
    generatedRootPassword: boot.generatedRootPassword,
    demo: env.RUNWAY_DEMO,
    requestLog: requestLogFile(),
  };
  await announceStart(facts, { banner: opts.banner });
}
