// Graceful shutdown on SIGTERM or SIGINT, as GitLab's Puma does it (shutdown_blackout_seconds):
// 1. readiness answers 503 at once, and the instance keeps serving everything for the blackout
//    (RUNWAY_SHUTDOWN_BLACKOUT_SECONDS), so the load balancer sees it and stops sending; from half-way
//    through, no runner poll is held and the held ones are answered (204 with X-GitLab-Last-Update) a few
//    at a time until the blackout ends, so their runners come back to the other instances as a trickle;
// 2. it stops accepting connections, answers what is still held, ends event streams with a `retry` hint,
//    and the background worker claims no more jobs;
// 3. requests being served finish, for at most RUNWAY_SHUTDOWN_TIMEOUT_SECONDS;
// 4. the heartbeats this instance buffered are written (lib/runner-agent/heartbeat: nothing a runner reported
//    is lost with the process), then connections and the database are closed and the process exits 0.
// A second signal exits at once (status 1). Each phase is one JSON log line.
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeEventStreams, openEventStreamCount } from '../api/sse';
import type { InstanceState } from '../health/checks';
import { heldPollCount, releaseHeldPolls } from '../runner-agent/long-poll';
import { flushHeartbeats } from '../runner-agent/heartbeat';
import { log } from '../log/log';

export interface DrainOptions {
  server: http.Server;
  blackoutSeconds: number;
  timeoutSeconds: number;
  /** Stops the background worker; resolves when its current job has finished. */
  stopWorker: () => Promise<void>;
  /** Closes what the process holds open besides HTTP: the LISTEN connection, the pool, the embedded database. */
  release: () => Promise<void>;
  exit?: (code: number) => never;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * Counts the requests being served and installs the signal handlers. Returns the instance state that
 * readiness reports (`draining` from the first signal on).
 */
export function installDrain(opts: DrainOptions): InstanceState {
  const instance: InstanceState = { draining: false };
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let closing = false;
  let active = 0;
  let idle: (() => void) | undefined;

  opts.server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active++;
    // From the signal on, a request on a kept-alive connection is the last one on it: the connection ends
    // after its answer, which the proxy reads, rather than being closed idle later, racing a request the
    // proxy sends on it (nginx passes a failed POST elsewhere only where told to).
    if (instance.draining || closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      if (--active === 0) idle?.();
    });
  });
  const untilIdle = () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));

  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    const began = performance.now();
    instance.draining = true;
    log('info', 'shutdown: draining, readiness fails', { signal, blackout_seconds: opts.blackoutSeconds });
    if (opts.blackoutSeconds > 0) {
      // The first half lets the load balancer's health checks take the instance out (HAProxy's in
      // deploy/: 2 to 4 s of the default 10); polls answered from then on are sent elsewhere.
      const half = opts.blackoutSeconds * 500;
      await sleep(half);
      log('info', 'shutdown: answering held polls', { held_polls: heldPollCount(), over_s: half / 1000 });
      await Promise.all([releaseHeldPolls(half), sleep(half)]);
    }

    closing = true;
    log('info', 'shutdown: closing', { in_flight: active, held_polls: heldPollCount(), event_streams: openEventStreamCount() });
    opts.server.close();
    opts.server.closeIdleConnections();
    void releaseHeldPolls();
    closeEventStreams();
    const settled = Promise.all([untilIdle(), opts.stopWorker()]).then(() => true);
    const finished = await Promise.race([settled, sleep(opts.timeoutSeconds * 1000, false, { ref: false })]);
    if (finished) log('info', 'shutdown: requests and background job finished');
    else log('warn', 'shutdown: timed out waiting for requests', { in_flight: active, timeout_seconds: opts.timeoutSeconds });

    opts.server.closeAllConnections();
    await flushHeartbeats().catch((err: unknown) => log('warn', 'shutdown: heartbeats not written', { error: (err as Error).message }));
    await opts.release().catch(() => undefined);
    log('info', 'shutdown: complete', { duration_s: seconds(performance.now() - began) });
    exit(0);
  }

  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log('warn', 'shutdown: second signal, exiting at once', { signal });
      exit(1);
    }
    signalled = true;
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return instance;
}
