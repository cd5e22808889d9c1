// The runner a poll authenticates as, from a per-process cache: GitLab keeps a runner's token lookup and
// heartbeat in Redis so that a poll that learns nothing new costs its database nothing; Runway keeps the
// little a poll needs (id, token expiry, the queue value's updated_at, whether the runner was ever
// contacted and its creation state, and the managers this process saw with what they reported) in each
// process's memory instead, and stays exact across instances through the runner change notifications
// (PostgreSQL LISTEN/NOTIFY, lib/notifications/hub): every write to a runner row (pause, edit, token reset,
// deletion, assignment, a manager's removal) announces its id on commit, and every instance drops that
// runner's entry when it hears of it.
//
// "Refused on the very next poll, on every instance": before an entry is served, the process waits for a
// Sync on its LISTEN connection (notificationsCaughtUp), which PostgreSQL answers only after every
// notification already committed. A reset or deletion acknowledged before the poll arrived has signalled
// that connection's backend at its commit, so its notification has dropped the entry by then. The Sync
// starts no transaction (a poll served from the cache still costs the database none), and polls arriving
// together share one.
//
// Entries are trusted only while notifications are known to arrive: an entry is stored only when this
// process's LISTEN was in place before its read began and no notification for that runner arrived during
// the read; when the LISTEN connection drops, the whole cache is dropped and nothing is cached until it
// is back. Entries also expire after CACHE_TTL_MS, a safety net against a lost notification, and an
// entry whose token has expired is never served. Unknown tokens are not cached (each costs a read).
// The embedded database delivers notifications in process only (a `runway` command's writes are not
// heard), so nothing is cached there; nor with RUNWAY_HEARTBEAT_FLUSH_SECONDS=0 (lib/runner-agent/heartbeat).
import { digest } from '../auth/secrets';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { log } from '../log/log';
import { notificationsCaughtUp, notificationsInProcess, parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe } from '../notifications/hub';

/** What a poll needs of its runner. */
export interface PollingRunner {
  id: number;
  tokenExpiresAt: Date | null;
  /** The queue value's source (lastUpdateValue in lib/runner-agent/heartbeat). */
  updatedAt: Date;
}

/** A runner manager as stored, as far as a poll's contact compares with it. */
export interface KnownManager {
  creationState: string;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  executorType: string | null;
  ipAddress: string | null;
}

/** What a poll's contact must know to decide what it writes at once (lib/runner-agent/heartbeat recordContact). */
export interface PollingContact extends PollingRunner {
  /**
   * contacted_at is set and recent (under 40 minutes old): otherwise the contact is written at once, as
   * Ci::Runner#persist_cached_data? does for a first contact or one after 40-55 minutes of silence, so a
   * runner coming back online shows (and is announced) at once instead of at the next flush.
   */
  contacted: boolean;
  creationState: string;
  /** The poll's manager as stored, or null when it is new (or this process has not seen it yet). */
  manager: KnownManager | null;
}

interface Entry extends PollingRunner {
  digest: string;
  storedAt: number;
  contacted: boolean;
  creationState: string;
  /** system_xid -> the manager as this process last read or wrote it. */
  managers: Map<string, KnownManager>;
}

/**
 * Long enough that a runner holding 50 s polls is read about once in ten polls (the steady state must stay
 * under 0.2 transactions per poll); a runner's change never waits for it, its notification drops the entry.
 */
export const CACHE_TTL_MS = 10 * 60 * 1000;
/** After a failed LISTEN, polls read the database without trying again for this long. */
const RESUBSCRIBE_DELAY_MS = 1_000;
/** The notified ids kept to judge reads in flight; past this many the reads in flight are simply not stored. */
const MAX_TRACKED_CHANGES = 50_000;

interface CacheState {
  byDigest: Map<string, Entry>;
  digestById: Map<number, string>;
  /** True while the LISTEN is in place and has not been lost since. */
  live: boolean;
  subscription?: Promise<void>;
  failedAt: number;
  /** Bumped whenever the cache is dropped as a whole: a read begun before may not be stored. */
  generation: number;
  /** Counts notifications; `changed` maps a runner id to the count at its last notification. */
  seq: number;
  changed: Map<number, number>;
  reads: number;
  sweptAt: number;
}

// One per process, whichever bundle (Next.js or the fast path) loaded this module.
const holder = globalThis as typeof globalThis & { __runwayRunnerCache?: CacheState };
const state = (): CacheState =>
  (holder.__runwayRunnerCache ??= {
    byDigest: new Map(),
    digestById: new Map(),
    live: false,
    failedAt: 0,
    generation: 0,
    seq: 0,
    changed: new Map(),
    reads: 0,
    sweptAt: Date.now(),
  });

function forget(id: number): void {
  const s = state();
  const d = s.digestById.get(id);
  if (d === undefined) return;
  s.digestById.delete(id);
  s.byDigest.delete(d);
}

function dropAll(): void {
  const s = state();
  s.byDigest.clear();
  s.digestById.clear();
  s.changed.clear();
  s.generation++;
}

function onChange(payload: string): void {
  const change = parseRunnerChange(payload);
  const s = state();
  s.seq++;
  if (!change) return dropAll();
  forget(change.id);
  if (s.reads === 0) return;
  if (s.changed.size >= MAX_TRACKED_CHANGES) return dropAll();
  s.changed.set(change.id, s.seq);
}

/** Resolves once notifications of runner changes reach this process (and the cache may be trusted). */
function listening(): Promise<void> {
  const s = state();
  s.subscription ??= subscribe(
    RUNNER_CHANGES_CHANNEL,
    onChange,
    () => {
      dropAll();
      s.live = true;
    },
    (closed) => {
      s.live = false;
      dropAll();
      if (closed) s.subscription = undefined;
    },
  ).then(
    () => {
      dropAll();
      s.live = true;
    },
    (err: unknown) => {
      s.subscription = undefined;
      s.failedAt = Date.now();
      throw err;
    },
  );
  return s.subscription;
}

/** Whether polls may be served from the cache in this process now (subscribing first if need be). */
async function cacheUsable(): Promise<boolean> {
  const s = state();
  if (notificationsInProcess()) return false;
  if (!s.subscription && Date.now() - s.failedAt < RESUBSCRIBE_DELAY_MS) return false;
  try {
    await listening();
  } catch (err) {
    // Without notifications an entry could outlive a pause: read the database until they are back.
    log('warn', 'runner cache off: notifications unavailable', { error: (err as Error).message });
    return false;
  }
  return s.live;
}

const unexpired = (e: PollingRunner, now: number) => e.tokenExpiresAt === null || e.tokenExpiresAt.getTime() > now;

/** Once a TTL, drops the entries past it: runners that stopped polling this process leave its memory. */
function sweep(now: number): void {
  const s = state();
  if (now - s.sweptAt < CACHE_TTL_MS) return;
  s.sweptAt = now;
  for (const e of s.byDigest.values()) if (now - e.storedAt >= CACHE_TTL_MS) forget(e.id);
}

interface RunnerRow extends PollingRunner {
  digest: string;
  contacted: boolean;
  creationState: string;
  manager: KnownManager | null;
}

async function readRunner(wanted: string, systemXid: string | undefined): Promise<RunnerRow | null> {
  const rows = await queryRows<RunnerRow>(sql`
    SELECT r.id, r.token_digest AS "digest", r.token_expires_at AS "tokenExpiresAt", r.updated_at AS "updatedAt",
           COALESCE(r.contacted_at > now() - interval '40 minutes', false) AS "contacted", r.creation_state::text AS "creationState",
           CASE WHEN m.id IS NULL THEN NULL
                ELSE json_build_object('creationState', m.creation_state::text, 'version', m.version, 'revision', m.revision,
                                       'platform', m.platform, 'architecture', m.architecture,
                                       'executorType', m.executor_type::text, 'ipAddress', m.ip_address::text) END AS "manager"
      FROM ci_runners r
      LEFT JOIN ci_runner_machines m ON m.runner_id = r.id AND m.system_xid = ${systemXid ?? null}::text
     WHERE r.token_digest = ${wanted} AND (r.token_expires_at IS NULL OR r.token_expires_at > now())`);
  // The index found the row by this very digest: the strings are equal, nothing secret is compared here.
  return rows[0]?.digest === wanted ? rows[0] : null;
}

const contactOf = (e: Entry, systemXid: string | undefined): PollingContact => ({
  id: e.id,
  tokenExpiresAt: e.tokenExpiresAt,
  updatedAt: e.updatedAt,
  contacted: e.contacted,
  creationState: e.creationState,
  manager: (systemXid !== undefined && e.managers.get(systemXid)) || null,
});

/** A served entry, unless a change announced while the process caught up with its notifications dropped it. */
async function confirmed(wanted: string, hit: Entry): Promise<boolean> {
  if (!(await notificationsCaughtUp())) return false;
  return state().byDigest.get(wanted) === hit;
}

/**
 * The runner holding this authentication token, or null (unknown or expired token), with what its contact
 * must know about `systemXid`'s manager. `fresh` reads the database even when an entry is cached (a held
 * poll woken by a notification), and refreshes the entry.
 */
export async function findPollingRunner(token: string, opts: { fresh?: boolean; systemXid?: string } = {}): Promise<PollingContact | null> {
  if (!token) return null;
  const wanted = digest(token);
  const s = state();
  const usable = await cacheUsable();
  const now = Date.now();
  sweep(now);
  const hit = usable ? s.byDigest.get(wanted) : undefined;
  if (hit && !opts.fresh && now - hit.storedAt < CACHE_TTL_MS && unexpired(hit, now) && (await confirmed(wanted, hit))) {
    return contactOf(hit, opts.systemXid);
  }
  const generation = s.generation;
  const seq = s.seq;
  s.reads++;
  let row: RunnerRow | null;
  try {
    row = await readRunner(wanted, opts.systemXid);
  } finally {
    s.reads--;
  }
  // Stored only if nothing this read could have missed happened meanwhile: the LISTEN held throughout and
  // no notification for this runner arrived after the read began.
  if (usable && row && s.live && s.generation === generation && (s.changed.get(row.id) ?? -1) <= seq) {
    const before = s.byDigest.get(wanted);
    forget(row.id);
    // A refresh of the same runner keeps the managers it knew: a manager's removal drops the whole entry.
    const managers = before?.id === row.id ? before.managers : new Map<string, KnownManager>();
    if (opts.systemXid !== undefined) {
      if (row.manager) managers.set(opts.systemXid, row.manager);
      else managers.delete(opts.systemXid);
    }
    const { manager: _manager, ...rest } = row;
    s.byDigest.set(wanted, { ...rest, storedAt: now, managers });
    s.digestById.set(row.id, wanted);
  } else if (hit) {
    forget(hit.id);
  }
  if (s.reads === 0) s.changed.clear();
  if (!row) return null;
  return {
    id: row.id,
    tokenExpiresAt: row.tokenExpiresAt,
    updatedAt: row.updatedAt,
    contacted: row.contacted,
    creationState: row.creationState,
    manager: row.manager,
  };
}

/**
 * What a poll's contact wrote at once, so later polls of this process compare with it: the runner is
 * contacted (and finished), and `systemXid`'s manager is as given. Kept only on the entry the poll was
 * served from; a notification that dropped it meanwhile wins.
 */
export function rememberContact(token: string, runnerId: number, c: { finished: boolean; systemXid: string; manager: KnownManager | null }): void {
  const e = state().byDigest.get(digest(token));
  if (!e || e.id !== runnerId) return;
  e.contacted = true;
  if (c.finished) e.creationState = 'finished';
  if (c.manager) e.managers.set(c.systemXid, c.manager);
}

/** Runners cached in this process (tests, metrics). */
export function cachedRunnerCount(): number {
  return state().byDigest.size;
}
