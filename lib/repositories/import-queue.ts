// Scheduling imports: the request only records "scheduled" and queues a background job; the worker
// marks the project started, runs the import, and records finished or failed (with the reason).
import { db, type Prisma } from '../db/client';
import { enqueueJob } from '../background/queue';
import { assertImportUrlAllowed } from './import-url';
import { importRepository, type ImportResult } from './import';
import { classifyImportUrl } from './import-url';
import { GitError } from './git';
import { redactCredentials } from './git';
import { notFound } from '../api/errors';

export const IMPORT_JOB_KIND = 'repository_import';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/**
 * Queues an import of `url` into the project. Checks the URL against the actor first (400 with
 * `{"message":{"import_url":[...]}}` when refused). Pass `client` to join the caller's transaction.
 */
export async function enqueueImport({ projectId, url, actorId }: { projectId: number; url: string; actorId: number }, client?: Client): Promise<void> {
  const run = async (tx: Client) => {
    const actor = await tx.user.findUnique({ where: { id: actorId }, select: { admin: true } });
    if (!actor) throw notFound('User');
    assertImportUrlAllowed(url, actor);
    await tx.project.update({ where: { id: projectId }, data: { importUrl: url, importStatus: 'scheduled', importError: null } });
    await enqueueJob(IMPORT_JOB_KIND, { projectId, url, actorId }, tx);
  };
  if (client) await run(client);
  else await db().$transaction(run);
}

/** The worker side of an import job. Failures are recorded on the project, not rethrown as job crashes. */
export async function runImportJob(payload: Record<string, unknown>): Promise<void> {
  const projectId = Number(payload.projectId);
  const url = String(payload.url);
  const found = await db().project.updateMany({ where: { id: projectId }, data: { importStatus: 'started', importError: null } });
  if (!found.count) return; // project deleted meanwhile
  try {
    await importRepository(projectId, url);
  } catch (err) {
    const reason = redactCredentials(err instanceof Error ? err.message : String(err));
    await db().project.updateMany({ where: { id: projectId }, data: { importStatus: 'failed', importError: reason.slice(0, 2000) } });
    throw err;
  }
}

/**
 * An operator's import (`runway import-repo`, the demo seed): runs at once, in this process. Local paths
 * are allowed here because whoever runs the CLI already reads the server's disk.
 */
export async function importNow(projectId: number, url: string): Promise<ImportResult> {
  if (classifyImportUrl(url) === 'invalid') throw new GitError('Import URL is invalid');
  await db().project.update({ where: { id: projectId }, data: { importUrl: url, importStatus: 'started', importError: null } });
  try {
    return await importRepository(projectId, url);
  } catch (err) {
    const reason = redactCredentials(err instanceof Error ? err.message : String(err));
    await db().project.updateMany({ where: { id: projectId }, data: { importStatus: 'failed', importError: reason.slice(0, 2000) } });
    throw err;
  }
}
