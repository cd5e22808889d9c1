// The gitlab-runner release list and the upgrade statuses computed from it, kept in PostgreSQL so every
// instance sees the same: GitLab fetches the list from public_runner_releases_url (lib/gitlab/ci/
// runner_releases.rb) and keeps one status per reported version in ci_runner_versions
// (ee/app/services/ci/runners/reconcile_existing_runner_versions_service.rb, daily, and
// app/services/ci/runners/process_runner_version_update_service.rb when a runner reports a new version).
//
// Runway ships a dated list (data/gitlab-runner-releases.json) and uses it until a newer one is stored:
// from a file (`runway runner-releases --file`), from the configured URL (`runway runner-releases --fetch`,
// or every day when update_runner_versions_enabled is on; off by default), never from an older list than
// the shipped one. The statuses compare with the GitLab version Runway answers as (GITLAB_COMPAT_VERSION,
// GET /version), as GitLab compares with its own.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import shipped from './data/gitlab-runner-releases.json';
import { db, type Prisma } from '../db/client';
import { executeStatement } from '../db/query';
import { sql } from '../db/sql';
import { type AuditActor, recordReleaseListAudit } from '../audit/service';
import { log } from '../log/log';
import { GITLAB_COMPAT_VERSION } from '../meta/version';
import type { Ip } from '../repositories/ip-address';
import { maskedUrl } from '../repositories/masked-url';
import { parseRemoteUrl, RemoteUrlError } from '../repositories/remote-url';
import { BlockedUrlError, checkRemote, pinnedLookup } from '../repositories/url-blocker';
import { currentSettings, localRequestsAllowed } from '../settings/application';
import { checkRunnerUpgrade, parseVersion, releaseIndex } from './upgrade-status';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export interface ReleaseList {
  /** Release names as the source gave them (`v17.5.0`). */
  versions: string[];
  /** When the list was taken from its source. */
  fetchedAt: Date;
  source: string;
}

export interface StoredReleaseList extends ReleaseList {
  computedFor: string | null;
  refreshAttemptedAt: Date | null;
  refreshError: string | null;
  updatedAt: Date;
}

/** A release document that cannot be used, or a URL that may not or could not be read. */
export class ReleaseListError extends Error {}

/** The list this build of Runway ships. */
export function shippedReleaseList(): ReleaseList {
  return { versions: [...shipped.versions], fetchedAt: new Date(shipped.fetched_at), source: `shipped with Runway: ${shipped.source}` };
}

export async function storedReleaseList(client: Client = db()): Promise<StoredReleaseList | null> {
  return client.runnerReleaseList.findUnique({ where: { id: 1 } });
}

/** The list statuses are computed from: the stored one, or the shipped one when it is newer (or none is stored). */
export function effectiveReleaseList(stored: StoredReleaseList | null): ReleaseList {
  const own = shippedReleaseList();
  return stored && stored.fetchedAt >= own.fetchedAt ? stored : own;
}

/** What a set of statuses was computed for: the list's content and the GitLab version compared with. */
export function computationKey(list: ReleaseList): string {
  const digest = createHash('sha256').update(list.versions.join('\n')).digest('hex').slice(0, 16);
  return `gitlab ${GITLAB_COMPAT_VERSION}; ${list.versions.length} releases; sha256 ${digest}`;
}

// ------------------------------------------------------------------ reading a release document

/** As many releases as a document may hold (gitlab-runner has about 400 a decade). */
const MAX_RELEASES = 10_000;
/** The largest document read from a file or URL. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

export interface ReleaseDocument {
  versions: string[];
  fetchedAt: Date | null;
  source: string | null;
}

/**
 * A release list in one of three forms: Runway's data file (`{fetched_at, source, versions}`), GitLab's
 * releases API (an array of releases, whose `name` GitLab reads, or `tag_name`), or an array of version
 * strings. Names that do not parse are left out, as GitLab's RunnerReleases#extract_releases does; a
 * document with none that parse is refused (GitLab too, when the answer is not empty; Runway refuses an
 * empty one as well, which would make every runner look up to date).
 */
export function parseReleaseDocument(text: string): ReleaseDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ReleaseListError('the release list is not JSON');
  }
  let names: unknown[];
  let fetchedAt: Date | null = null;
  let source: string | null = null;
  if (Array.isArray(doc)) names = doc;
  else if (doc && typeof doc === 'object' && Array.isArray((doc as { versions?: unknown }).versions)) {
    const d = doc as { versions: unknown[]; fetched_at?: unknown; source?: unknown };
    names = d.versions;
    if (d.fetched_at !== undefined) {
      fetchedAt = typeof d.fetched_at === 'string' ? new Date(d.fetched_at) : new Date(NaN);
      if (Number.isNaN(fetchedAt.getTime())) throw new ReleaseListError('fetched_at is not a date');
    }
    if (typeof d.source === 'string') source = d.source.slice(0, 500);
  } else throw new ReleaseListError('the release list is neither an array of releases nor an object with `versions`');
  if (names.length > MAX_RELEASES) throw new ReleaseListError(`the release list holds more than ${MAX_RELEASES} entries`);
  const versions = names
    .map((n) => (typeof n === 'string' ? n : n && typeof n === 'object' ? ((n as { name?: unknown }).name ?? (n as { tag_name?: unknown }).tag_name) : null))
    .filter((n): n is string => typeof n === 'string' && parseVersion(n) !== null);
  if (!versions.length) throw new ReleaseListError('the release list holds no gitlab-runner release version');
  return { versions: [...new Set(versions)], fetchedAt, source };
}

/** Reads a release document from a file. */
export async function readReleaseFile(file: string): Promise<ReleaseList> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_DOCUMENT_BYTES) throw new ReleaseListError(`${file} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (err) {
    if (err instanceof ReleaseListError) throw err;
    throw new ReleaseListError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const doc = parseReleaseDocument(text);
  return { versions: doc.versions, fetchedAt: doc.fetchedAt ?? new Date(), source: doc.source ? `file ${file}: ${doc.source}` : `file ${file}` };
}

const FETCH_TIMEOUT_MS = 15_000;

/**
 * GET `url` as GitLab's Gitlab::HTTP does, through the import URL blocker: http or https only, this host
 * and the local network refused unless allow_local_requests_from_web_hooks_and_services is on, the host
 * resolved once and the connection pinned to the address checked (no DNS rebinding), no redirects followed,
 * a 200 answer of at most MAX_DOCUMENT_BYTES within FETCH_TIMEOUT_MS.
 */
export async function fetchReleaseList(url: string): Promise<ReleaseList> {
  let remote;
  try {
    remote = parseRemoteUrl(url.trim());
  } catch (err) {
    if (err instanceof RemoteUrlError) throw new ReleaseListError(`${maskedUrl(url)} is blocked: ${err.message}`);
    throw err;
  }
  if (remote.scheme !== 'http' && remote.scheme !== 'https') throw new ReleaseListError(`${maskedUrl(url)} is blocked: Only allowed schemes are http, https`);
  let address: Ip | null;
  try {
    address = await checkRemote(remote, { allowLocalNetwork: await localRequestsAllowed(), mode: 'fetch' });
  } catch (err) {
    if (err instanceof BlockedUrlError) throw new ReleaseListError(`${maskedUrl(url)} is blocked: ${err.message}`);
    throw err;
  }
  const text = await httpGet(remote.href!, address!);
  const doc = parseReleaseDocument(text);
  return { versions: doc.versions, fetchedAt: new Date(), source: maskedUrl(remote.href) ?? remote.href! };
}

function httpGet(href: string, address: Ip): Promise<string> {
  const lookup = pinnedLookup(address);
  const client = href.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(href, { lookup, timeout: FETCH_TIMEOUT_MS, headers: { Accept: 'application/json', 'User-Agent': 'Runway' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new ReleaseListError(`${maskedUrl(href)} answered ${res.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) {
          req.destroy(new ReleaseListError(`${maskedUrl(href)} answered more than ${MAX_DOCUMENT_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new ReleaseListError(`${maskedUrl(href)} did not answer within ${FETCH_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => reject(err instanceof ReleaseListError ? err : new ReleaseListError(`${maskedUrl(href)}: ${err.message}`)));
  });
}

// ------------------------------------------------------------------ statuses

// One instance computes at a time (any other waits, then finds the work done).
const RECONCILE_LOCK = 7_296_451_033;
const CHUNK = 5_000;

async function writeStatuses(tx: Client, versions: string[], list: ReleaseList): Promise<number> {
  const index = releaseIndex(list.versions);
  let changed = 0;
  for (let i = 0; i < versions.length; i += CHUNK) {
    const part = versions.slice(i, i + CHUNK);
    const statuses = part.map((v) => checkRunnerUpgrade(v, index, GITLAB_COMPAT_VERSION).status);
    changed += await tx.$executeRaw(sql`
      UPDATE ci_runner_versions v SET status = u.status::"RunnerUpgradeStatus", updated_at = now()
        FROM unnest(${part}::text[], ${statuses}::text[]) AS u(version, status)
       WHERE v.version = u.version AND v.status IS DISTINCT FROM u.status::"RunnerUpgradeStatus"`);
  }
  return changed;
}

/**
 * Every status again from `list` (GitLab's reconcile): the versions managers report are all present, the
 * ones none reports any more are gone, each status is the list's. Runway recomputes every status, where
 * GitLab leaves `recommended` and `invalid` ones alone: its list only grows, while an admin may replace
 * Runway's.
 */
async function recomputeAll(tx: Client, list: ReleaseList): Promise<number> {
  await tx.$executeRaw`
    INSERT INTO ci_runner_versions (version)
    SELECT DISTINCT version FROM ci_runner_machines WHERE version IS NOT NULL AND octet_length(version) <= 2048
    ON CONFLICT (version) DO NOTHING`;
  await tx.$executeRaw`DELETE FROM ci_runner_versions v WHERE NOT EXISTS (SELECT 1 FROM ci_runner_machines m WHERE m.version = v.version)`;
  const versions = (await tx.$queryRaw<{ version: string }[]>`SELECT version FROM ci_runner_versions`).map((r) => r.version);
  const changed = await writeStatuses(tx, versions, list);
  await tx.runnerReleaseList.update({ where: { id: 1 }, data: { computedFor: computationKey(list) } });
  return changed;
}

const storedData = (list: ReleaseList) => ({ versions: list.versions, fetchedAt: list.fetchedAt, source: list.source.slice(0, 1000), computedFor: null });

/**
 * The periodic step (every instance, every minute) and the queued job after a runner reports a new
 * version: stores the shipped list when it is newer than the stored one (or none is stored), recomputes
 * every status when the list or the GitLab version changed since, and otherwise computes the statuses of
 * versions not processed yet. Returns how many statuses changed.
 */
export async function reconcileRunnerVersions(): Promise<number> {
  return db().$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${RECONCILE_LOCK}::bigint)::text`;
      let stored = await storedReleaseList(tx);
      const own = shippedReleaseList();
      if (!stored || stored.fetchedAt < own.fetchedAt) {
        stored = await tx.runnerReleaseList.upsert({ where: { id: 1 }, create: { id: 1, ...storedData(own) }, update: storedData(own) });
      }
      if (stored.computedFor !== computationKey(stored)) return recomputeAll(tx, stored);
      const pending = (await tx.$queryRaw<{ version: string }[]>`SELECT version FROM ci_runner_versions WHERE status IS NULL LIMIT ${CHUNK}`).map(
        (r) => r.version,
      );
      return pending.length ? writeStatuses(tx, pending, stored) : 0;
    },
    { timeout: 120_000 },
  );
}

export interface Replaced {
  releases: number;
  versions: number;
  changed: number;
}

/**
 * Stores `list` as the release list and recomputes every status with it, in one transaction. A list older
 * than the one Runway ships is refused: the shipped one would take its place at the next reconcile.
 */
export async function replaceReleaseList(list: ReleaseList, by: AuditActor): Promise<Replaced> {
  const own = shippedReleaseList();
  if (list.fetchedAt < own.fetchedAt) {
    throw new ReleaseListError(`the list was taken on ${list.fetchedAt.toISOString()}, before the one Runway ships (${own.fetchedAt.toISOString()})`);
  }
  return db().$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${RECONCILE_LOCK}::bigint)::text`;
      await tx.runnerReleaseList.upsert({
        where: { id: 1 },
        create: { id: 1, ...storedData(list) },
        update: { ...storedData(list), refreshError: null },
      });
      const changed = await recomputeAll(tx, list);
      const versions = await tx.runnerVersion.count();
      await recordReleaseListAudit(tx, {
        actor: by,
        source: list.source.slice(0, 1000),
        fetchedAt: list.fetchedAt,
        releases: list.versions.length,
        statusesChanged: changed,
      });
      return { releases: list.versions.length, versions, changed };
    },
    { timeout: 120_000 },
  );
}

/** Refreshes the list from the configured URL now (the CLI's --fetch; the daily refresh). */
export async function refreshReleasesFromUrl(by: AuditActor): Promise<Replaced> {
  const settings = await currentSettings();
  const list = await fetchReleaseList(settings.publicRunnerReleasesUrl);
  return replaceReleaseList(list, by);
}

/** Who the audit log names for the daily refresh (the CLI is `runway runner-releases`). */
const DAILY_REFRESH_ACTOR: AuditActor = { kind: 'system', name: 'Runner release refresh' };

/** How often the daily refresh is tried after a failure (GitLab backs off up to an hour). */
const RETRY_AFTER = '1 hour';

/**
 * The daily refresh from public_runner_releases_url, when update_runner_versions_enabled is on: the
 * instance that claims the attempt (at most one an hour, and only once the list is a day old) fetches;
 * a failure is kept for the dashboard and tried again an hour later.
 */
export async function scheduledReleasesRefresh(): Promise<boolean> {
  const settings = await currentSettings();
  if (!settings.updateRunnerVersionsEnabled) return false;
  const claimed = await executeStatement(sql`
    UPDATE ci_runner_releases SET refresh_attempted_at = now()
     WHERE id = 1 AND fetched_at < now() - interval '1 day'
       AND (refresh_attempted_at IS NULL OR refresh_attempted_at < now() - ${RETRY_AFTER}::interval)`);
  if (!claimed) return false;
  try {
    const done = await refreshReleasesFromUrl(DAILY_REFRESH_ACTOR);
    log('info', 'runner release list refreshed', { releases: done.releases, statuses_changed: done.changed });
    return true;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log('warn', 'runner release list refresh failed', { error: message });
    await db().runnerReleaseList.update({ where: { id: 1 }, data: { refreshError: message.slice(0, 1000) } });
    return false;
  }
}
