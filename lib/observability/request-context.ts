// What one HTTP request gathers on its way through the layers, for its log line and its metrics: the
// time its database statements took, who the API authenticated, and whether it turned long-lived (a
// held runner poll, an event stream). The http wrapper opens the context; lib/db, lib/api and the
// long-lived endpoints add to it through AsyncLocalStorage, so no layer passes it along or imports
// upward. It sits in the foundation because lib/db writes to it and lib/db may import nothing above.
import { AsyncLocalStorage } from 'node:async_hooks';

export type LongLived = 'runner_poll' | 'event_stream';

export interface RequestContext {
  /** Seconds spent in database statements, and how many ran (GitLab's db_duration_s, db_count). */
  dbSeconds: number;
  dbCount: number;
  /** The user the API authenticated (after Sudo), as GitLab's api_json.log names them. */
  user?: { id: number; username: string };
  longLived?: LongLived;
  /** Called once when the request turns long-lived (the request metrics stop counting it as in flight). */
  onLongLived?: () => void;
}

// One store per process: Next.js may evaluate this module once per bundle, beside the wrapper's copy.
const holder = globalThis as typeof globalThis & { __runwayRequestContext?: AsyncLocalStorage<RequestContext> };
const storage = (): AsyncLocalStorage<RequestContext> => (holder.__runwayRequestContext ??= new AsyncLocalStorage());

/** Wraps a request listener so that everything it starts runs inside a fresh request context. */
export function withRequestContext<A extends unknown[]>(listener: (...args: A) => void): (...args: A) => void {
  return (...args) => storage().run({ dbSeconds: 0, dbCount: 0 }, () => listener(...args));
}

/** The context of the request being served, if any (background work and the CLI have none). */
export function currentRequest(): RequestContext | undefined {
  return storage().getStore();
}

export function recordDbStatement(seconds: number): void {
  const ctx = storage().getStore();
  if (!ctx) return;
  ctx.dbSeconds += seconds;
  ctx.dbCount++;
}

export function recordUser(user: { id: number; username: string }): void {
  const ctx = storage().getStore();
  if (ctx) ctx.user = { id: user.id, username: user.username };
}

/** The request will be held open on purpose: its duration says nothing about the server's latency. */
export function markLongLived(kind: LongLived): void {
  const ctx = storage().getStore();
  if (!ctx || ctx.longLived) return;
  ctx.longLived = kind;
  ctx.onLongLived?.();
}
