// Reads of imported repositories. History walks follow parent_shas with a recursive CTE (each step an
// index lookup on commits(project_id, sha)) and order like `git log`: newest committer date first.
import { db } from '../db/client';
import { containsPattern, empty, likeEscape, sql, type Sql } from '../db/sql';
import type { CommitData } from './entity';

interface CommitSqlRow {
  sha: string;
  parent_shas: string[];
  author_name: string;
  author_email: string;
  authored_date: Date;
  authored_tz_offset: number;
  committer_name: string;
  committer_email: string;
  committed_date: Date;
  committed_tz_offset: number;
  title: string;
  message: string;
  trailers: unknown;
  extended_trailers: unknown;
}

const COMMIT_COLUMNS = sql`c.sha, c.parent_shas, c.author_name, c.author_email, c.authored_date, c.authored_tz_offset,
  c.committer_name, c.committer_email, c.committed_date, c.committed_tz_offset, c.title, c.message, c.trailers, c.extended_trailers`;

export function toCommitData(r: CommitSqlRow): CommitData {
  return {
    sha: r.sha,
    parentShas: r.parent_shas,
    authorName: r.author_name,
    authorEmail: r.author_email,
    authoredDate: r.authored_date,
    authoredTzOffset: r.authored_tz_offset,
    committerName: r.committer_name,
    committerEmail: r.committer_email,
    committedDate: r.committed_date,
    committedTzOffset: r.committed_tz_offset,
    title: r.title,
    message: r.message,
    trailers: r.trailers,
    extendedTrailers: r.extended_trailers,
  };
}

const HEX = /^[0-9a-f]{4,40}$/i;

/**
 * Commits whose SHA starts with each given id (full or short), in one query. A short id matching
 * several commits resolves to none, as git answers for an ambiguous abbreviation.
 */
export async function commitsByShas(projectId: number, ids: string[]): Promise<Map<string, CommitData>> {
  const wanted = [...new Set(ids.map((s) => s.toLowerCase()).filter((s) => HEX.test(s)))];
  const out = new Map<string, CommitData>();
  if (!wanted.length) return out;
  // Range conditions keep the prefix lookup on the (project_id, sha) unique index.
  const ranges = wanted.map((p) => sql`(c.sha >= ${p} AND c.sha < ${p + 'g'})`);
  const rows = await db().$queryRaw<CommitSqlRow[]>`
    SELECT ${COMMIT_COLUMNS} FROM commits c
     WHERE c.project_id = ${projectId} AND (${joinOr(ranges)})`;
  for (const p of wanted) {
    const matches = rows.filter((r) => r.sha.startsWith(p));
    if (matches.length === 1) out.set(p, toCommitData(matches[0]));
  }
  return out;
}

function joinOr(parts: Sql[]): Sql {
  return parts.reduce((acc, part, i) => (i === 0 ? part : sql`${acc} OR ${part}`), empty);
}

/** The commit for a branch name, a full SHA or a unique short SHA; null if none. */
export async function findCommit(projectId: number, ref: string): Promise<CommitData | null> {
  const branch = await db().branch.findUnique({ where: { projectId_name: { projectId, name: ref } }, select: { commitSha: true } });
  const sha = branch?.commitSha ?? ref;
  return (await commitsByShas(projectId, [sha])).get(sha.toLowerCase()) ?? null;
}

/** The SHA a ref names (branch first, then commit id), or null. */
export async function resolveRef(projectId: number, ref: string): Promise<string | null> {
  return (await findCommit(projectId, ref))?.sha ?? null;
}

/** Runway's `search` also finds a commit by the start of its SHA (4+ hex digits), as GitLab's context-commits search does. */
function shaPrefix(search: string): Sql {
  const p = search.trim().toLowerCase();
  return HEX.test(p) ? sql`OR (c.sha >= ${p} AND c.sha < ${p + 'g'})` : empty;
}

export interface CommitFilters {
  since?: Date;
  until?: Date;
  author?: string;
  search?: string;
}

/** Every ancestor of `tip` (itself included), as a CTE named `walk`; with `since`, the walk stops at older commits. */
function ancestry(projectId: number, tip: string, since: Date | null = null): Sql {
  return sql`walk(sha) AS (
      SELECT ${tip}::text
      UNION
      SELECT p.sha FROM walk w
        JOIN commits pc ON pc.project_id = ${projectId} AND pc.sha = w.sha ${since ? sql`AND pc.committed_date >= ${since}` : empty}
        CROSS JOIN LATERAL unnest(pc.parent_shas) AS p(sha))`;
}

/** The committed date of the project's n-th newest commit (index (project_id, committed_date)), or null if fewer. */
async function windowStart(projectId: number, n: number): Promise<Date | null> {
  const rows = await db().$queryRaw<{ d: Date }[]>`
    SELECT committed_date AS d FROM commits WHERE project_id = ${projectId}
     ORDER BY committed_date DESC OFFSET ${n - 1} LIMIT 1`;
  return rows[0]?.d ?? null;
}

/**
 * One page of `git log <tip>` with GitLab's filters. `membership` is the id of a branch whose reach is
 * stored (branch_commits) and whose tip is `tip`: then the page is read from the stored membership;
 * otherwise the history is walked.
 */
export async function listCommits(
  projectId: number,
  tip: string,
  f: CommitFilters,
  offset: number,
  limit: number,
  membership: number | null = null,
): Promise<CommitData[]> {
  if (membership !== null) return listMemberCommits(projectId, membership, f, offset, limit);
  const filters = commitFilters(f);
  if (filters !== empty) return listFilteredCommits(projectId, tip, filters, offset, limit);
  return listWalkedCommits(projectId, tip, offset, limit);
}

/** The branch's id when branch_commits holds its reach for its current tip, else null. */
export async function storedMembership(projectId: number, ref: string): Promise<number | null> {
  const branch = await db().branch.findUnique({
    where: { projectId_name: { projectId, name: ref } },
    select: { id: true, commitSha: true, membershipSha: true },
  });
  return branch && branch.membershipSha === branch.commitSha ? branch.id : null;
}

// How many of the branch's newest commits a text search reads through before asking the trigram indexes.
const RECENT_WINDOW = 1_000;

/**
 * A page of a branch with stored membership. Dates alone: a range of the (branch_id, committed_date)
 * index, read in order, so the cost follows the page. A text search (message, SHA, author) first reads
 * the branch's newest commits in order, where a common word fills the page at once; if the page is still
 * short, every match comes from the trigram indexes (few rows for a rare word, however old), is kept if
 * the branch reaches it, and is ordered newest first. Left to itself the planner would read the date
 * index until 40 matches turn up, which for a word common only in old history reads nearly all of it.
 */
async function listMemberCommits(projectId: number, branchId: number, f: CommitFilters, offset: number, limit: number): Promise<CommitData[]> {
  const dates = sql`${f.since ? sql`AND m.committed_date >= ${f.since}` : empty} ${f.until ? sql`AND m.committed_date <= ${f.until}` : empty}`;
  const text = commitFilters({ author: f.author, search: f.search });
  if (text === empty) {
    const rows = await db().$queryRaw<CommitSqlRow[]>`
      SELECT ${COMMIT_COLUMNS} FROM branch_commits m JOIN commits c ON c.id = m.commit_id
       WHERE m.branch_id = ${branchId} ${dates}
       ORDER BY m.committed_date DESC, m.commit_id DESC OFFSET ${offset} LIMIT ${limit}`;
    return rows.map(toCommitData);
  }
  const window = Math.max(RECENT_WINDOW, (offset + limit) * 10);
  // One primary-key lookup per recent commit, in the branch's order, stopping once the page is full
  // (LATERAL ... OFFSET 0 keeps the planner from hashing the whole commits table instead).
  const recent = await db().$queryRaw<CommitSqlRow[]>`
    SELECT ${COMMIT_COLUMNS} FROM (
      SELECT m.commit_id, m.committed_date FROM branch_commits m
       WHERE m.branch_id = ${branchId} ${dates}
       ORDER BY m.committed_date DESC, m.commit_id DESC LIMIT ${window}) r
      CROSS JOIN LATERAL (SELECT * FROM commits c WHERE c.id = r.commit_id ${text} OFFSET 0) c
     ORDER BY r.committed_date DESC, r.commit_id DESC OFFSET ${offset} LIMIT ${limit}`;
  if (recent.length === limit) return recent.map(toCommitData);
  // Each match is checked against the branch by primary key (LATERAL ... OFFSET 0: never a hash of the
  // branch's whole membership), and only the page's rows are read in full.
  const all = await db().$queryRaw<CommitSqlRow[]>`
    WITH matches AS MATERIALIZED (
      SELECT c.id, c.committed_date FROM commits c
       WHERE c.project_id = ${projectId} ${commitFilters(f)}),
    page AS (
      SELECT x.id, x.committed_date FROM matches x
        CROSS JOIN LATERAL (SELECT 1 FROM branch_commits m WHERE m.branch_id = ${branchId} AND m.commit_id = x.id OFFSET 0) m
       ORDER BY x.committed_date DESC, x.id DESC OFFSET ${offset} LIMIT ${limit})
    SELECT ${COMMIT_COLUMNS} FROM page p JOIN commits c ON c.id = p.id
     ORDER BY p.committed_date DESC, p.id DESC`;
  return all.map(toCommitData);
}

/**
 * An unfiltered page by walking: the walk first covers only the project's most recent commits (a window
 * a few times the page's reach), widening until the page fills or the window spans the whole history,
 * so early pages cost a few index lookups rather than the full ancestry. As with git's own date-ordered
 * walk, a commit dated after the window but reachable only through an older one (clock skew) may be
 * listed later than its date.
 */
async function listWalkedCommits(projectId: number, tip: string, offset: number, limit: number): Promise<CommitData[]> {
  for (let reach = (offset + limit) * 4; ; reach *= 4) {
    const cutoff = await windowStart(projectId, reach);
    const rows = await db().$queryRaw<CommitSqlRow[]>`
      WITH RECURSIVE ${ancestry(projectId, tip, cutoff)}
      SELECT ${COMMIT_COLUMNS} FROM walk w JOIN commits c ON c.project_id = ${projectId} AND c.sha = w.sha
       WHERE TRUE ${cutoff ? sql`AND c.committed_date >= ${cutoff}` : empty}
       ORDER BY c.committed_date DESC, c.id DESC
       OFFSET ${offset} LIMIT ${limit}`;
    if (rows.length === limit || !cutoff) return rows.map(toCommitData);
  }
}

function commitFilters(f: CommitFilters): Sql {
  const conds: Sql[] = [];
  if (f.since) conds.push(sql`AND c.committed_date >= ${f.since}`);
  if (f.until) conds.push(sql`AND c.committed_date <= ${f.until}`);
  if (f.author) {
    const like = containsPattern(f.author);
    conds.push(sql`AND (c.author_name ILIKE ${like} OR c.author_email ILIKE ${like})`);
  }
  if (f.search) conds.push(sql`AND (c.message ILIKE ${containsPattern(f.search)} ${shaPrefix(f.search)})`);
  return conds.length ? conds.reduce((a, b) => sql`${a} ${b}`) : empty;
}

/**
 * A filtered page, matches first: the project's newest matching commits (index (project_id,
 * committed_date)), then a walk from the tip only as far back as the oldest of them to keep those the
 * ref reaches; more matches are taken while the page is short. A search that matches nothing answers
 * without walking, and a match near the tip costs a short walk; an old match still costs a walk back
 * to it, as `git log --grep` does.
 */
async function listFilteredCommits(projectId: number, tip: string, filters: Sql, offset: number, limit: number): Promise<CommitData[]> {
  for (let take = (offset + limit) * 2; ; take *= 4) {
    const matches = await db().$queryRaw<CommitSqlRow[]>`
      SELECT ${COMMIT_COLUMNS} FROM commits c
       WHERE c.project_id = ${projectId} ${filters}
       ORDER BY c.committed_date DESC, c.id DESC LIMIT ${take}`;
    if (!matches.length) return [];
    const oldest = matches[matches.length - 1].committed_date;
    const reached = await db().$queryRaw<{ sha: string }[]>`
      WITH RECURSIVE ${ancestry(projectId, tip, oldest)}
      SELECT sha FROM walk WHERE sha = ANY(${matches.map((m) => m.sha)}::text[])`;
    const reachable = new Set(reached.map((r) => r.sha));
    const rows = matches.filter((m) => reachable.has(m.sha));
    if (rows.length >= offset + limit || matches.length < take) return rows.slice(offset, offset + limit).map(toCommitData);
  }
}

/** `git log target..source`: commits reachable from source and not from target, newest first. */
function between(projectId: number, targetTip: string | null, sourceTip: string): Sql {
  return sql`src(sha) AS (
        SELECT ${sourceTip}::text
        UNION
        SELECT p.sha FROM src s JOIN commits pc ON pc.project_id = ${projectId} AND pc.sha = s.sha
          CROSS JOIN LATERAL unnest(pc.parent_shas) AS p(sha)),
      tgt(sha) AS (
        SELECT ${targetTip ?? ''}::text
        UNION
        SELECT p.sha FROM tgt t JOIN commits pc ON pc.project_id = ${projectId} AND pc.sha = t.sha
          CROSS JOIN LATERAL unnest(pc.parent_shas) AS p(sha))`;
}

export async function commitsBetween(projectId: number, targetTip: string | null, sourceTip: string, offset: number, limit: number): Promise<CommitData[]> {
  const rows = await db().$queryRaw<CommitSqlRow[]>`
    WITH RECURSIVE ${between(projectId, targetTip, sourceTip)}
    SELECT ${COMMIT_COLUMNS} FROM src s JOIN commits c ON c.project_id = ${projectId} AND c.sha = s.sha
     WHERE NOT EXISTS (SELECT 1 FROM tgt t WHERE t.sha = s.sha)
     ORDER BY c.committed_date DESC, c.id DESC
     OFFSET ${offset} LIMIT ${limit}`;
  return rows.map(toCommitData);
}

export async function countCommitsBetween(projectId: number, targetTip: string | null, sourceTip: string): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`
    WITH RECURSIVE ${between(projectId, targetTip, sourceTip)}
    SELECT count(*)::int AS n FROM src s JOIN commits c ON c.project_id = ${projectId} AND c.sha = s.sha
     WHERE NOT EXISTS (SELECT 1 FROM tgt t WHERE t.sha = s.sha)`;
  return rows[0]?.n ?? 0;
}

export interface BranchRow {
  name: string;
  commit: CommitData;
  merged: boolean;
}

function branchSearch(search: string | undefined): Sql {
  if (!search) return empty;
  // GitLab: ^ anchors the start, $ the end, otherwise a substring match.
  const starts = search.startsWith('^');
  const ends = search.endsWith('$');
  const core = likeEscape(search.slice(starts ? 1 : 0, ends ? -1 : undefined));
  return sql`AND b.name ILIKE ${`${starts ? '' : '%'}${core}${ends ? '' : '%'}`}`;
}

export async function countBranches(projectId: number, search?: string): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM branches b WHERE b.project_id = ${projectId} ${branchSearch(search)}`;
  return rows[0]?.n ?? 0;
}

/** One page of branches (by name) with their tip commits and whether each is merged into the default branch. */
export async function listBranches(
  projectId: number,
  defaultBranch: string | null,
  search: string | undefined,
  offset: number,
  limit: number,
): Promise<BranchRow[]> {
  const page = await db().$queryRaw<(CommitSqlRow & { branch_name: string })[]>`
    SELECT b.name AS branch_name, ${COMMIT_COLUMNS} FROM branches b
      JOIN commits c ON c.project_id = b.project_id AND c.sha = b.commit_sha
     WHERE b.project_id = ${projectId} ${branchSearch(search)}
     ORDER BY b.name OFFSET ${offset} LIMIT ${limit}`;
  const merged = new Set<string>();
  const defaultTip = defaultBranch ? await resolveRef(projectId, defaultBranch) : null;
  const candidates = page.filter((r) => r.branch_name !== defaultBranch).map((r) => r.sha);
  if (defaultTip && candidates.length) {
    const rows = await db().$queryRaw<{ sha: string }[]>`
      WITH RECURSIVE ${ancestry(projectId, defaultTip)}
      SELECT sha FROM walk WHERE sha = ANY(${candidates}::text[])`;
    for (const r of rows) merged.add(r.sha);
  }
  return page.map((r) => ({ name: r.branch_name, commit: toCommitData(r), merged: r.branch_name !== defaultBranch && merged.has(r.sha) }));
}

export async function findBranch(projectId: number, name: string) {
  return db().branch.findUnique({ where: { projectId_name: { projectId, name } } });
}
