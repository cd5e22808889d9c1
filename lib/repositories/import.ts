// Importing a repository: mirror it with git into the data dir, stream its history into `commits` in
// batches (bounded memory), then replace the branch rows and finish the project's import in one
// transaction. Re-importing fetches into the same mirror: new commits are added, moved branches follow.
// A mirror is only a cache of the import URL: one missing (or unusable) on this instance's disk is cloned
// again. Mirrors live under the database's instance id, so databases sharing a data folder never meet.
// The URL is checked right before git runs, and git connects only to the address that was checked.
import fs from 'node:fs/promises';
import path from 'node:path';
import { db } from '../db/client';
import { dataDir } from '../config/paths';
import { databaseInstanceId } from '../db/identity';
import { runGit, spawnGit, GitError } from './git';
import { LOG_ARGS, parseLogStream } from './log-stream';
import type { CommitData } from './entity';
import { importSource } from './import-url';
import { reachableShas, storeMembership } from './membership';

const BATCH = 500;
const NETWORK_TIMEOUT_MS = 30 * 60_000;

/** <data dir>/repositories/<database instance id>/<project id>.git */
export async function mirrorPath(projectId: number): Promise<string> {
  return path.join(dataDir(), 'repositories', await databaseInstanceId(), `${projectId}.git`);
}

// Every git call names the mirror with --git-dir: with -C, git would search upwards from a broken or
// empty mirror folder and could act on whatever repository encloses the data folder.
const inMirror = (mirror: string, ...args: string[]) => [`--git-dir=${mirror}`, ...args];

/** Whether `mirror` holds a bare repository git can use (false when missing, empty or broken). */
async function usableMirror(mirror: string): Promise<boolean> {
  const out = await runGit(inMirror(mirror, 'rev-parse', '--is-bare-repository')).catch(() => '');
  return out.trim() === 'true';
}

/** git could not fetch from the source: its words are the remote's, so they are never shown to users. */
export class FetchError extends GitError {}

const fetching = <T>(run: Promise<T>) =>
  run.catch((err: unknown) => {
    throw err instanceof GitError ? new FetchError(err.message) : err;
  });

export interface ImportOptions {
  /** Local paths and file:// URLs may be read (an admin's import on an instance that allows it, or the CLI). */
  allowLocalPaths: boolean;
}

/** Clones (first time) or fetches (later) the bare mirror. */
async function updateMirror(projectId: number, url: string, options: ImportOptions): Promise<string> {
  const mirror = await mirrorPath(projectId);
  const source = await importSource(url, options);
  const opts = { ...source.git, timeoutMs: NETWORK_TIMEOUT_MS };
  if (await usableMirror(mirror)) {
    await runGit(inMirror(mirror, 'remote', 'set-url', 'origin', source.url), opts);
    await fetching(runGit(inMirror(mirror, 'fetch', '--prune', '--force', '--quiet', 'origin'), opts));
    // A mirror's HEAD follows the source's default branch.
    await runGit(inMirror(mirror, 'remote', 'set-head', 'origin', '--auto'), opts).catch(() => undefined);
    return mirror;
  }
  // Missing, or left unusable (an interrupted copy, an emptied folder): a fresh clone replaces it.
  await fs.rm(mirror, { recursive: true, force: true });
  await fs.mkdir(path.dirname(mirror), { recursive: true });
  const tmp = `${mirror}.tmp-${process.pid}-${Date.now()}`;
  try {
    await fetching(runGit(['clone', '--mirror', '--quiet', '--', source.url, tmp], opts));
    await fs.rename(tmp, mirror);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return mirror;
}

/**
 * One INSERT for a batch: each column travels as one array parameter and unnest() turns them back into
 * rows (15 parameters whatever the batch size). Parent SHAs go as space-separated text, since SQL arrays
 * cannot be ragged.
 */
async function insertBatch(projectId: number, batch: CommitData[]): Promise<void> {
  const col = <T>(f: (c: CommitData) => T) => batch.map(f);
  await db().$executeRaw`
    INSERT INTO commits (project_id, sha, parent_shas, author_name, author_email, authored_date, authored_tz_offset,
                         committer_name, committer_email, committed_date, committed_tz_offset, title, message, trailers, extended_trailers)
    SELECT ${projectId}, t.sha, COALESCE(string_to_array(NULLIF(t.parents, ''), ' '), '{}'::text[]), t.an, t.ae, t.ad, t.ao, t.cn, t.ce, t.cd, t.co, t.title, t.message, t.tr::jsonb, t.etr::jsonb
      FROM unnest(${col((c) => c.sha)}::text[], ${col((c) => c.parentShas.join(' '))}::text[],
                  ${col((c) => c.authorName)}::text[], ${col((c) => c.authorEmail)}::text[], ${col((c) => c.authoredDate)}::timestamptz[],
                  ${col((c) => c.authoredTzOffset)}::int[], ${col((c) => c.committerName)}::text[], ${col((c) => c.committerEmail)}::text[],
                  ${col((c) => c.committedDate)}::timestamptz[], ${col((c) => c.committedTzOffset)}::int[], ${col((c) => c.title)}::text[],
                  ${col((c) => c.message)}::text[], ${col((c) => JSON.stringify(c.trailers))}::text[], ${col((c) => JSON.stringify(c.extendedTrailers))}::text[])
        AS t(sha, parents, an, ae, ad, ao, cn, ce, cd, co, title, message, tr, etr)
    ON CONFLICT (project_id, sha) DO NOTHING`;
}

/** Streams every commit of the mirror into the database, BATCH rows per INSERT ... ON CONFLICT DO NOTHING. */
async function importCommits(projectId: number, mirror: string): Promise<number> {
  const child = spawnGit(inMirror(mirror, ...LOG_ARGS));
  child.stdin.end();
  const stderr: Buffer[] = [];
  child.stderr.on('data', (b: Buffer) => stderr.push(b));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let batch: CommitData[] = [];
  let total = 0;
  const flush = async () => {
    if (!batch.length) return;
    await insertBatch(projectId, batch);
    total += batch.length;
    batch = [];
  };
  try {
    for await (const commit of parseLogStream(child.stdout)) {
      batch.push(commit);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const code = await exited;
  // An empty repository has no refs: git log answers with an error, and there is nothing to import.
  if (code !== 0 && total > 0) throw new GitError(Buffer.concat(stderr).toString('utf8').trim() || `git log exited with ${code}`);
  return total;
}

async function readBranches(mirror: string): Promise<{ name: string; sha: string }[]> {
  const out = await runGit(inMirror(mirror, 'for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/heads/'));
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, sha] = line.split('\0');
      return { name: ref.replace(/^refs\/heads\//, ''), sha };
    });
}

async function readHead(mirror: string): Promise<string | null> {
  const out = await runGit(inMirror(mirror, 'symbolic-ref', '-q', 'HEAD')).catch(() => '');
  const ref = out.trim();
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

export interface ImportResult {
  commits: number;
  branches: number;
}

/** The whole import of one project; throws on failure (the caller records it). */
export async function importRepository(projectId: number, url: string, options: ImportOptions): Promise<ImportResult> {
  const mirror = await updateMirror(projectId, url, options);
  const commits = await importCommits(projectId, mirror);
  const branches = await readBranches(mirror);
  const head = await readHead(mirror);
  const names = new Set(branches.map((b) => b.name));
  const pickDefault = (current: string | null) => current ?? (head && names.has(head) ? head : (branches[0]?.name ?? null));
  // The default branch's reach, read from git before the transaction so it stays short.
  const before = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { defaultBranch: true } });
  const walked = branches.find((b) => b.name === pickDefault(before.defaultBranch));
  const reach = walked ? await reachableShas(mirror, walked.sha) : [];
  await db().$transaction(
    async (tx) => {
      await tx.branch.deleteMany({ where: { projectId } });
      if (branches.length) await tx.branch.createMany({ data: branches.map((b) => ({ projectId, name: b.name, commitSha: b.sha })) });
      const project = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { defaultBranch: true } });
      const defaultBranch = pickDefault(project.defaultBranch);
      if (walked && defaultBranch === walked.name) {
        const row = await tx.branch.findUniqueOrThrow({ where: { projectId_name: { projectId, name: walked.name } }, select: { id: true } });
        await storeMembership(tx, projectId, row.id, walked.sha, reach);
      }
      await tx.project.update({
        where: { id: projectId },
        data: { importStatus: 'finished', importError: null, importedAt: new Date(), defaultBranch, lastActivityAt: new Date() },
      });
    },
    // Storing the reach of a 100,000-commit branch takes a few seconds on a busy machine.
    { timeout: 120_000 },
  );
  // Fresh statistics keep the history walks (recursive CTEs) on index lookups: without them the planner
  // may expect a handful of rows per project and choose scans.
  await db().$executeRawUnsafe('ANALYZE commits');
  await db().$executeRawUnsafe('ANALYZE branch_commits');
  return { commits, branches: branches.length };
}
