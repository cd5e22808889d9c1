// A per-process cache of database rows that stays exact across instances through PostgreSQL's
// notifications (the hub): triggers announce every write to the rows an entry was read from, and every
// instance drops the entries that depend on them when it hears of it.
//
// "Exact", not "soon": before an entry is served, the process waits for a Sync on its LISTEN connection
// (notificationsCaughtUp), which PostgreSQL answers only after every notification already committed. A
// change acknowledged to anyone before the lookup began has signalled that connection's backend at its
// commit, so its notification has dropped the entry by then. The Sync starts no transaction, and lookups
// arriving together share one.
//
// Entries are trusted only while notifications are known to arrive: an entry is stored only when the
// LISTEN was in place before its read began and no notification for what it depends on arrived during the
// read; when the LISTEN connection drops, the whole cache is dropped and nothing is cached until it is
// back. Entries also expire after `ttlMs`, a safety net against a lost notification. The embedded database
// delivers notifications in process only (a `runway` command's writes are not heard), and a transaction
// pooler loses them (the hub's Sync then vouches for nothing), so nothing is served from a cache there.
import { log } from '../log/log';
import { notificationsCaughtUp, notificationsInProcess, subscribe } from './hub';

export interface NotifiedCacheOptions {
  /** Names the cache in logs. */
  name: string;
  /** The channel its triggers announce changes on. */
  channel: string;
  /** The dependencies a notification's payload changed (each entry lists its own), or null for "everything". */
  changed(payload: string): string[] | null;
  ttlMs: number;
  /** Past this many entries, new ones are not stored (a flood of distinct keys stays bounded). */
  maxEntries: number;
}

/** What a read returns to be stored: the value and the rows (dependencies) it was read from. */
export interface Loaded<V> {
  value: V;
  dependsOn: string[];
}

interface Slot<V> extends Loaded<V> {
  storedAt: number;
}

/** After a failed LISTEN, lookups read the database without trying again for this long. */
const RESUBSCRIBE_DELAY_MS = 1_000;
/** The notified dependencies kept to judge reads in flight; past this many, reads in flight are not stored. */
const MAX_TRACKED_CHANGES = 50_000;

export class NotifiedCache<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private readonly keysByDependency = new Map<string, Set<string>>();
  /** True while the LISTEN is in place and has not been lost since. */
  private live = false;
  private subscription?: Promise<void>;
  private failedAt = 0;
  /** Bumped whenever the cache is dropped as a whole: a read begun before may not be stored. */
  private generation = 0;
  /** Counts notifications; `changedAt` maps a dependency to the count at its last notification. */
  private seq = 0;
  private readonly changedAt = new Map<string, number>();
  private reads = 0;
  private sweptAt = Date.now();

  constructor(private readonly opts: NotifiedCacheOptions) {}

  get size(): number {
    return this.slots.size;
  }

  /**
   * The value for `key`: from the cache when an entry may be served, else from `load` (null: nothing
   * there, never cached), stored when `keep` accepts it and nothing it could have missed happened during
   * the read. `fresh` reads the database whatever the cache holds, and refreshes the entry.
   */
  async get(key: string, load: () => Promise<Loaded<V> | null>, opts: { keep?: (value: V) => boolean; fresh?: boolean } = {}): Promise<V | null> {
    const usable = await this.usable();
    const now = Date.now();
    this.sweep(now);
    const hit = usable ? this.slots.get(key) : undefined;
    if (hit && !opts.fresh && now - hit.storedAt < this.opts.ttlMs && (await this.confirmed(key, hit))) return hit.value;
    const generation = this.generation;
    const seq = this.seq;
    this.reads++;
    let loaded: Loaded<V> | null;
    try {
      loaded = await load();
    } finally {
      this.reads--;
    }
    if (hit) this.forget(key);
    if (
      usable &&
      loaded &&
      (opts.keep?.(loaded.value) ?? true) &&
      this.live &&
      this.generation === generation &&
      this.slots.size < this.opts.maxEntries &&
      loaded.dependsOn.every((d) => (this.changedAt.get(d) ?? -1) <= seq)
    ) {
      this.forget(key);
      this.slots.set(key, { ...loaded, storedAt: now });
      for (const d of loaded.dependsOn) {
        let keys = this.keysByDependency.get(d);
        if (!keys) this.keysByDependency.set(d, (keys = new Set()));
        keys.add(key);
      }
    }
    if (this.reads === 0) this.changedAt.clear();
    return loaded ? loaded.value : null;
  }

  /** The entry, unless a change announced while the process caught up with its notifications dropped it. */
  private async confirmed(key: string, hit: Slot<V>): Promise<boolean> {
    if (!(await notificationsCaughtUp())) return false;
    return this.slots.get(key) === hit;
  }

  private forget(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    for (const d of slot.dependsOn) {
      const keys = this.keysByDependency.get(d);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByDependency.delete(d);
    }
  }

  private dropAll(): void {
    this.slots.clear();
    this.keysByDependency.clear();
    this.changedAt.clear();
    this.generation++;
  }

  private onNotification(payload: string): void {
    this.seq++;
    const changed = this.opts.changed(payload);
    if (!changed) return this.dropAll();
    for (const d of changed) {
      for (const key of [...(this.keysByDependency.get(d) ?? [])]) this.forget(key);
      if (this.reads === 0) continue;
      if (this.changedAt.size >= MAX_TRACKED_CHANGES) return this.dropAll();
      this.changedAt.set(d, this.seq);
    }
  }

  /** Resolves once this process hears the channel (and the cache may be trusted). */
  private listening(): Promise<void> {
    const becameLive = () => {
      this.dropAll();
      this.live = true;
    };
    this.subscription ??= subscribe(
      this.opts.channel,
      (payload) => this.onNotification(payload),
      becameLive,
      (closed) => {
        this.live = false;
        this.dropAll();
        if (closed) this.subscription = undefined;
      },
    ).then(becameLive, (err: unknown) => {
      this.subscription = undefined;
      this.failedAt = Date.now();
      throw err;
    });
    return this.subscription;
  }

  /** Whether entries may be served in this process now (subscribing first if need be). */
  private async usable(): Promise<boolean> {
    if (notificationsInProcess()) return false;
    if (!this.subscription && Date.now() - this.failedAt < RESUBSCRIBE_DELAY_MS) return false;
    try {
      await this.listening();
    } catch (err) {
      // Without notifications an entry could outlive a change: read the database until they are back.
      log('warn', `${this.opts.name} cache off: notifications unavailable`, { error: (err as Error).message });
      return false;
    }
    return this.live;
  }

  /** Once a TTL, drops the entries past it: keys no longer asked for leave memory. */
  private sweep(now: number): void {
    if (now - this.sweptAt < this.opts.ttlMs) return;
    this.sweptAt = now;
    for (const [key, slot] of this.slots) if (now - slot.storedAt >= this.opts.ttlMs) this.forget(key);
  }
}

// Next.js may evaluate a module once per bundle: each cache lives on globalThis, one per process.
const holder = globalThis as typeof globalThis & { __runwayNotifiedCaches?: Map<string, NotifiedCache<unknown>> };

/** The process's cache named `opts.name` (made on first use). */
export function notifiedCache<V>(opts: NotifiedCacheOptions): NotifiedCache<V> {
  const caches = (holder.__runwayNotifiedCaches ??= new Map());
  let cache = caches.get(opts.name);
  if (!cache) caches.set(opts.name, (cache = new NotifiedCache<unknown>(opts)));
  return cache as NotifiedCache<V>;
}
