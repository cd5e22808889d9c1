// Demo repositories (part of `RUNWAY_DEMO=true` / `runway seed`). A small git repository is written with
// git into the data dir (fixed dates and authors, so its SHAs are the same on every machine), imported
// into the demo projects, and given open and merged merge requests, some carrying context commits (one
// builds on an earlier merged one), with months of history on main for the context-commits search.
// Idempotent: the source repository, imports and MRs are reused when present.
import fs from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { dataDir } from '../config/paths';
import { db } from '../db/client';
import { importNow } from '../repositories/import-queue';
import { commitsByShas } from '../repositories/queries';
import { platformDemoIds, type DemoProjectKey } from './platform';
import { log } from '../log/log';
import type { Prisma } from '../db/generated/client';

type Person = { name: string; email: string };
const AMELIE: Person = { name: 'Amélie Dubois', email: 'amelie@acme.example' };
const DANA: Person = { name: 'Dana Diaz', email: 'dana@acme.example' };
const MARK: Person = { name: 'Mark Mayer', email: 'mark@acme.example' };
const JURGEN: Person = { name: 'Jürgen Weiß', email: 'juergen@acme.example' };
const YUKI: Person = { name: '佐藤 由紀', email: 'yuki@acme.example' };

function git(cwd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd, LC_ALL: 'C', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args[0]}: ${err.trim()}`))));
    child.stdin.on('error', () => undefined); // git may exit before reading stdin
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

const who = (p: Person, date: string, role: 'AUTHOR' | 'COMMITTER') => ({
  [`GIT_${role}_NAME`]: p.name,
  [`GIT_${role}_EMAIL`]: p.email,
  [`GIT_${role}_DATE`]: date,
});

async function commit(dir: string, file: string, content: string, message: string, author: Person, date: string, committer = author): Promise<string> {
  await fs.writeFile(path.join(dir, file), content);
  await git(dir, ['add', '--', file]);
  await git(dir, ['commit', '-q', '--no-verify', '-F', '-'], { ...who(author, date, 'AUTHOR'), ...who(committer, date, 'COMMITTER') }, message);
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

/** Writes the demo source repository once; returns its path and the SHAs the MRs refer to. */
async function demoSource(): Promise<{ dir: string; shas: Record<string, string> }> {
  const dir = path.join(dataDir(), 'seed-sources', 'api-gateway');
  const marker = path.join(dir, '.git', 'runway-demo-complete');
  const shas: Record<string, string> = {};
  const exists = await fs.stat(marker).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    await git(dir, ['init', '-q', '-b', 'main']);
    await commit(dir, 'README.md', '# API Gateway\n', 'Initial commit\n', MARK, '2025-01-06T09:00:00+01:00');
    await commit(dir, 'routes.yml', 'routes: []\n', 'Add routing table\n\nSigned-off-by: Mark Mayer <mark@acme.example>\n', MARK, '2025-01-07T10:30:00+01:00');
    await git(dir, ['checkout', '-q', '-b', 'hotfix/timeouts']);
    await commit(
      dir,
      'timeouts.yml',
      'upstream: 30s\n',
      'Raise upstream timeout to 30s\n\nSigned-off-by: Jürgen Weiß <juergen@acme.example>\n',
      JURGEN,
      '2025-01-08T14:00:00+01:00',
    );
    await git(dir, ['checkout', '-q', 'main']);
    await git(dir, ['merge', '-q', '--no-ff', '-m', "Merge branch 'hotfix/timeouts' into 'main'", 'hotfix/timeouts'], {
      ...who(MARK, '2025-01-09T08:15:00+01:00', 'AUTHOR'),
      ...who(MARK, '2025-01-09T08:15:00+01:00', 'COMMITTER'),
    });
    await git(dir, ['checkout', '-q', '-b', 'feature/oauth-login']);
    await commit(
      dir,
      'auth.yml',
      'oauth: true\n',
      'Add OAuth login\n\nUses the identity provider for browser sessions.\n\nSigned-off-by: Dana Diaz <dana@acme.example>\nCo-authored-by: 佐藤 由紀 <yuki@acme.example>\n',
      DANA,
      '2025-01-13T11:00:00-05:00',
    );
    await commit(
      dir,
      'auth.yml',
      'oauth: true\nrefresh: true\n',
      'Refresh OAuth tokens\n\nCo-authored-by: Amélie Dubois <amelie@acme.example>\nSigned-off-by: Dana Diaz <dana@acme.example>\n',
      DANA,
      '2025-01-14T16:20:00-05:00',
      AMELIE,
    );
    await git(dir, ['checkout', '-q', 'main']);
    await commit(dir, 'CHANGELOG.md', '## 1.1\n- timeouts\n', 'Update changelog\n', AMELIE, '2025-01-15T09:45:00+01:00');
    await maintenanceHistory(dir);
    await git(dir, ['checkout', '-q', '-b', 'docs/readme', 'main']);
    await commit(dir, 'README.md', '# API Gateway\n\nRouting at the edge.\n', 'Document the gateway\n', YUKI, '2025-01-16T10:00:00+09:00');
    await git(dir, ['checkout', '-q', 'main']);
    await fs.writeFile(marker, 'ok\n');
  }
  const rev = async (r: string) => (await git(dir, ['rev-parse', r])).trim();
  shas.hotfix = await rev('hotfix/timeouts');
  shas.merge = (await git(dir, ['rev-list', '--merges', '-n', '1', 'main'])).trim();
  shas.routes = await rev(`${shas.merge}^1`);
  shas.initial = await rev(`${shas.merge}^1~1`);
  return { dir, shas };
}

const AREAS = [
  'rate limiter',
  'TLS settings',
  'health checks',
  'request logging',
  'CORS rules',
  'retry policy',
  'metrics',
  'upstream pool',
  'cache headers',
  'error pages',
];
const VERBS = ['Tune', 'Fix', 'Document', 'Refactor', 'Test'];
const PEOPLE = [MARK, AMELIE, JURGEN, DANA, YUKI];

/**
 * Months of everyday commits on main (one a day from 2025-01-20), so the previously merged commits dialog
 * has history to search by title, SHA, author and date.
 */
async function maintenanceHistory(dir: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    const title = `${VERBS[i % VERBS.length]} ${AREAS[(i * 3) % AREAS.length]}`;
    const date = new Date(Date.UTC(2025, 0, 20 + i, 9 + (i % 8))).toISOString().replace('.000Z', '+00:00');
    await commit(dir, 'JOURNAL.md', `${i}: ${title}\n`, `${title}\n\nPart of the gateway's routine upkeep (${i + 1}).\n`, PEOPLE[i % PEOPLE.length], date);
  }
}

async function ensureImported(projectId: number, dir: string): Promise<void> {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { importStatus: true, importUrl: true } });
  if (project.importStatus === 'finished' && project.importUrl === dir) return;
  await importNow(projectId, dir);
}

interface DemoMr {
  title: string;
  source: string;
  target: string;
  author: string;
  assignees: string[];
  reviewers?: string[];
  state: 'opened' | 'merged';
  mergedBy?: string;
  mergeCommit?: string;
  sha?: string;
  contextCommits?: string[];
}

async function ensureMr(projectId: number, users: Partial<Record<string, number>>, spec: DemoMr): Promise<void> {
  const existing = await db().mergeRequest.findFirst({ where: { projectId, sourceBranch: spec.source, targetBranch: spec.target, title: spec.title } });
  if (existing) {
    // Demo data seeded before reviewers existed gains them on the next seed.
    const reviewerIds = (spec.reviewers ?? []).map((u) => users[u]).filter((id): id is number => !!id);
    if (reviewerIds.length)
      await db().mergeRequestReviewer.createMany({ data: reviewerIds.map((userId) => ({ mergeRequestId: existing.id, userId })), skipDuplicates: true });
    return;
  }
  const source = await db().branch.findUnique({ where: { projectId_name: { projectId, name: spec.source } } });
  const context = spec.contextCommits?.length ? await commitsByShas(projectId, spec.contextCommits) : new Map();
  await db().$transaction(async (tx: Prisma.TransactionClient) => {
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`;
    const max = await tx.mergeRequest.aggregate({ where: { projectId }, _max: { iid: true } });
    const mr = await tx.mergeRequest.create({
      data: {
        iid: (max._max.iid ?? 0) + 1,
        projectId,
        sourceProjectId: projectId,
        title: spec.title,
        description: `Demo merge request: ${spec.title}.`,
        state: spec.state,
        sourceBranch: spec.source,
        targetBranch: spec.target,
        authorId: users[spec.author] ?? null,
        sha: spec.sha ?? source?.commitSha ?? null,
        mergedById: spec.mergedBy ? (users[spec.mergedBy] ?? null) : null,
        mergedAt: spec.state === 'merged' ? new Date('2025-01-09T07:15:00Z') : null,
        mergeCommitSha: spec.mergeCommit ?? null,
      },
    });
    const assigneeIds = spec.assignees.map((u) => users[u]).filter((id): id is number => !!id);
    if (assigneeIds.length) await tx.mergeRequestAssignee.createMany({ data: assigneeIds.map((userId) => ({ mergeRequestId: mr.id, userId })) });
    const reviewerIds = (spec.reviewers ?? []).map((u) => users[u]).filter((id): id is number => !!id);
    if (reviewerIds.length) await tx.mergeRequestReviewer.createMany({ data: reviewerIds.map((userId) => ({ mergeRequestId: mr.id, userId })) });
    const rows = [...context.values()].map((c, i) => ({
      mergeRequestId: mr.id,
      sha: c.sha,
      relativeOrder: i,
      authorName: c.authorName,
      authorEmail: c.authorEmail,
      authoredDate: c.authoredDate,
      committerName: c.committerName,
      committerEmail: c.committerEmail,
      committedDate: c.committedDate,
      message: c.message,
      trailers: c.trailers as Prisma.InputJsonValue,
    }));
    if (rows.length) await tx.mergeRequestContextCommit.createMany({ data: rows, skipDuplicates: true });
  });
}

export async function seedRepositoriesDemo(): Promise<void> {
  const { projects, users } = await platformDemoIds();
  const targets: DemoProjectKey[] = ['api', 'runnerFleet', 'website'];
  if (!targets.some((k) => projects[k])) {
    log('warn', 'demo repositories skipped: the demo projects do not exist');
    return;
  }
  const { dir, shas } = await demoSource();
  for (const key of targets) {
    const id = projects[key];
    if (id) await ensureImported(id, dir);
  }
  const api = projects.api;
  if (!api) return;
  await ensureMr(api, users, {
    title: "Merge branch 'hotfix/timeouts'",
    source: 'hotfix/timeouts',
    target: 'main',
    author: 'mark.maintainer',
    assignees: ['mark.maintainer'],
    reviewers: ['dana.developer'],
    state: 'merged',
    mergedBy: 'mark.maintainer',
    mergeCommit: shas.merge,
    sha: shas.hotfix,
  });
  await ensureMr(api, users, {
    title: 'Add OAuth login',
    source: 'feature/oauth-login',
    target: 'main',
    author: 'dana.developer',
    // A Reporter assignee: the MR page shows why Rita may add context commits.
    assignees: ['dana.developer', 'rita.reporter'],
    reviewers: ['mark.maintainer', 'alice.owner'],
    state: 'opened',
    contextCommits: [shas.hotfix, shas.routes],
  });
  await ensureMr(api, users, {
    title: 'Draft: Document the gateway',
    source: 'docs/readme',
    target: 'main',
    author: 'dana.developer',
    assignees: [],
    state: 'opened',
  });
}
