// Long polling of POST /jobs/request, as GitLab Workhorse does it (apiCiLongPollingDuration): a runner
// that sends back, as last_update, the queue value it was last given has nothing new to learn, so its
// poll is held until that value changes or the time is up, and answered 204 either way. Runway's queue
// value follows the runner row (lastUpdateValue in lib/runner-agent/heartbeat.ts); a change to it from any
// Runway instance arrives as a runway_runner_changes notification (PostgreSQL LISTEN/NOTIFY through
// lib/notifications/hub), which makes the held polls of that runner re-read their value.
//
// Unlike Workhorse (which answers a held poll without asking Rails), the poll is authenticated and its
// heartbeat recorded before it is held (from the runner cache and into the heartbeat buffer: no database
// work for a poll with nothing new); a poll woken by a change is re-authenticated from the database (a
// deleted runner or a reset token answers 403, as Rails would after Workhorse).
//
// A runner holds at most RUNWAY_MAX_HELD_POLLS_PER_RUNNER polls in one process (its managers'
// request_concurrency added up); one more is refused with 429 (Workhorse holds any number).
import { integerSetting } from '../config/env';
import { log } from '../log/log';
import { metrics } from '../metrics/registry';
import { markLongLived } from '../observability/request-context';
import { notificationsInProcess, parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe, type Unsubscribe } from '../notifications/hub';

/** GitLab's default apiCiLongPollingDuration in Omnibus and the chart: 50 s. */
export const DEFAULT_LONG_POLLING_SECONDS = 50;
// On the embedded database the triggers' notifications do not reach this process (lib/notifications/hub),
// so held polls re-read their value this often instead; embedded serves few runners.
const IN_PROCESS_RECHECK_MS = 1_000;

interface Waiter {
  /** Re-reads the runner's value; `fresh`: from the database, not the runner cache. */
  check(fresh: boolean): void;
  release(): void;
}

interface LongPollState {
  waiters: Map<number, Set<Waiter>>;
  subscription?: Promise<Unsubscribe>;
  stopping: boolean;
}

// One per process, whichever bundle (Next.js or the fast path) loaded this module.
const holder = globalThis as typeof globalThis & { __runwayLongPoll?: LongPollState };
const state = (): LongPollState => (holder.__runwayLongPoll ??= { waiters: new Map(), stopping: false });

/** RUNWAY_LONG_POLLING_SECONDS (validated at start), 0 when long polling is off. */
export function longPollingSeconds(): number {
  const raw = process.env.RUNWAY_LONG_POLLING_SECONDS?.trim();
  if (!raw) return DEFAULT_LONG_POLLING_SECONDS;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_LONG_POLLING_SECONDS;
}

function forEachWaiter(runnerId: number | null, fn: (w: Waiter) => void): void {
  const s = state();
  const sets = runnerId === null ? [...s.waiters.values()] : [s.waiters.get(runnerId)].filter((x) => x !== undefined);
  for (const set of sets) for (const w of [...set]) fn(w);
}

/** The process's one subscription to runner changes, made on the first held poll. */
function listening(): Promise<Unsubscribe> {
  const s = state();
  s.subscription ??= subscribe(
    RUNNER_CHANGES_CHANNEL,
    (payload) => {
      const change = parseRunnerChange(payload);
      if (change) forEachWaiter(change.id, (w) => w.check(true));
    },
    // Notifications may have been missed while the connection was down: every held poll re-reads.
    () => forEachWaiter(null, (w) => w.check(true)),
  ).catch((err: unknown) => {
    s.subscription = undefined;
    throw err;
  });
  return s.subscription;
}

/** The answer of a poll the runner has no room to hold: it already holds its cap in this process. */
export const TOO_MANY_HELD_POLLS = Symbol('too many held polls');

export interface HoldRequest {
  runnerId: number;
  /** The last_update the runner sent, if any. */
  lastUpdate: string | null | undefined;
  /** The runner's queue value as this request read it. */
  value: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * The runner's queue value now, or null when it no longer authenticates. `fresh` after a notification
   * (read the database); not fresh for the check as the hold starts (the runner cache, which drops an
   * entry on its runner's change, is exact then).
   */
  reread: (fresh: boolean) => Promise<string | null>;
}

/**
 * The queue value to answer with: at once when last_update differs from it (or long polling is off),
 * otherwise when it changes, the client leaves, the server stops, or the long polling time is up.
 * null when the runner no longer authenticates; TOO_MANY_HELD_POLLS when it may hold no more.
 */
export async function holdWhileUnchanged(h: HoldRequest): Promise<string | null | typeof TOO_MANY_HELD_POLLS> {
  const seconds = longPollingSeconds();
  const s = state();
  if (!seconds || !h.lastUpdate || h.lastUpdate !== h.value || s.stopping || h.signal.aborted) return h.value;
  if (!notificationsInProcess()) {
    try {
      await listening();
    } catch (err) {
      // Without notifications a held poll could miss a pause: answer now, the runner polls again.
      log('warn', 'long polling unavailable', { error: (err as Error).message });
      return h.value;
    }
  }
  // Checked with nothing awaited before the waiter is added below, so concurrent polls cannot all pass.
  if ((s.waiters.get(h.runnerId)?.size ?? 0) >= integerSetting('RUNWAY_MAX_HELD_POLLS_PER_RUNNER')) return TOO_MANY_HELD_POLLS;
  return new Promise<string | null>((resolve, reject) => {
    let done = false;
    let checking = false;
    let again = false;
    let recheck: NodeJS.Timeout | undefined;
    const held = process.hrtime.bigint();
    const finish = (reason: 'changed' | 'timeout' | 'client_gone' | 'shutdown' | 'error', result: { value: string | null } | { error: unknown }) => {
      if (done) return;
      done = true;
      metrics().pollsHeld.dec();
      metrics().pollHold.observe({ outcome: reason }, Number(process.hrtime.bigint() - held) / 1e9);
      clearTimeout(timer);
      if (recheck) clearInterval(recheck);
      h.signal.removeEventListener('abort', onAbort);
      const set = s.waiters.get(h.runnerId);
      set?.delete(waiter);
      if (set && !set.size) s.waiters.delete(h.runnerId);
      log('debug', 'held runner poll ended', { runner_id: h.runnerId, reason, held: heldPollCount() });
      if ('error' in result) reject(result.error);
      else resolve(result.value);
    };
    // Re-reads run one at a time; a notification during a re-read asks for one more (from the database).
    const check = async (fresh: boolean) => {
      if (done) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        let fromDatabase = fresh;
        do {
          again = false;
          const now = await h.reread(fromDatabase);
          fromDatabase = true;
          if (now !== h.value) return finish('changed', { value: now });
        } while (again && !done);
      } catch (err) {
        finish('error', { error: err });
      } finally {
        checking = false;
      }
    };
    const waiter: Waiter = { check: (fresh) => void check(fresh), release: () => finish('shutdown', { value: h.value }) };
    const onAbort = () => finish('client_gone', { value: h.value });
    const timer = setTimeout(() => finish('timeout', { value: h.value }), seconds * 1000);
    let set = s.waiters.get(h.runnerId);
    if (!set) s.waiters.set(h.runnerId, (set = new Set()));
    set.add(waiter);
    metrics().pollsHeld.inc();
    markLongLived('runner_poll');
    h.signal.addEventListener('abort', onAbort, { once: true });
    if (notificationsInProcess()) recheck = setInterval(() => waiter.check(true), IN_PROCESS_RECHECK_MS);
    // A change committed between this request's read and the LISTEN would otherwise go unseen.
    waiter.check(false);
  });
}

/** Held polls right now (for tests and the benchmark). */
export function heldPollCount(): number {
  let n = 0;
  for (const set of state().waiters.values()) n += set.size;
  return n;
}

/**
 * Server shutdown: no poll is held from now on, and every held poll is answered (204, unchanged value),
 * spread evenly over `spreadMs`: their runners poll again a check_interval later, through the load balancer
 * to the other instances, as a trickle rather than all at once (10,000 polls answered together come back as
 * 3,000 polls a second for three seconds). Resolves once all are answered.
 */
export function releaseHeldPolls(spreadMs = 0): Promise<void> {
  state().stopping = true;
  const held: Waiter[] = [];
  forEachWaiter(null, (w) => held.push(w));
  if (spreadMs <= 0 || held.length < 2) {
    for (const w of held) w.release();
    return Promise.resolve();
  }
  const step = spreadMs / held.length;
  const started = performance.now();
  let next = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(held.length, Math.floor((performance.now() - started) / step) + 1);
      while (next < due) held[next++].release();
      if (next < held.length) setTimeout(tick, Math.min(50, Math.max(1, step)));
      else resolve();
    };
    tick();
  });
}
