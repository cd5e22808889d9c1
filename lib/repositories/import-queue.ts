// Scheduling imports: the request only records "scheduled" and queues a background job; the worker
// marks the project started, runs the import (which checks the URL again right before fetching), and
// records finished or failed. A failure is recorded in GitLab's words with a fixed reason: what git or
// the remote said goes to the server log only, never to import_error.
import { db, type Prisma } from '../db/client';
import { enqueueJob } from '../background/queue';
import { importRepository, FetchError, type ImportOptions, type ImportResult } from './import';
import { localImportAllowed } from './import-url';
import { maskedUrl } from './masked-url';
import { BlockedUrlError } from './url-blocker';

export const IMPORT_JOB_KIND = 'repository_import';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/**
 * Queues an import of `url` into the project; the caller has checked the URL (importUrlProblem) and the
 * job checks it again. Pass `client` to join the caller's transaction.
 */
export async function enqueueImport({ projectId, url, actorId }: { projectId: number; url: string; actorId: number }, client?: Client): Promise<void> {
  const run = async (tx: Client) => {
    await tx.project.update({ where: { id: projectId }, data: { importUrl: url, importStatus: 'scheduled', importError: null } });
    await enqueueJob(IMPORT_JOB_KIND, { projectId, url, actorId }, tx);
  };
  if (client) await run(client);
  else await db().$transaction(run);
}

/** Projects::ImportService's reasons: the blocker's message, or a fixed one. */
function failureReason(err: unknown): string {
  if (err instanceof BlockedUrlError) return `Blocked import URL: ${err.message}`;
  if (err instanceof FetchError) return 'Unable to access repository with the URL and credentials provided';
  return 'The remote data could not be imported.';
}

async function runRecorded(projectId: number, url: string, options: ImportOptions): Promise<ImportResult> {
  try {
    return await importRepository(projectId, url, options);
  } catch (err) {
    const project = await db().project.findUnique({ where: { id: projectId }, select: { fullPath: true } });
    if (project) {
      const importError = `Error importing repository ${maskedUrl(url)} into ${project.fullPath} - ${failureReason(err)}`;
      await db().project.updateMany({ where: { id: projectId }, data: { importStatus: 'failed', importError: importError.slice(0, 2000) } });
    }
    throw err;
  }
}

/** The worker side of an import job. Failures are recorded on the project, then rethrown for the job log. */
export async function runImportJob(payload: Record<string, unknown>): Promise<void> {
  const projectId = Number(payload.projectId);
  const url = String(payload.url);
  const found = await db().project.updateMany({ where: { id: projectId }, data: { importStatus: 'started', importError: null } });
  if (!found.count) return; // project deleted meanwhile
  // Whether the one who asked may read local paths, as of now.
  const actor = await db().user.findUnique({ where: { id: Number(payload.actorId) }, select: { admin: true } });
  await runRecorded(projectId, url, { allowLocalPaths: Boolean(actor?.admin) && localImportAllowed() });
}

/**
 * An operator's import (`runway import-repo`, the demo seed): runs at once, in this process. Local paths
 * are allowed here because whoever runs the CLI already reads the server's disk; remote URLs are checked
 * as any import's.
 */
export async function importNow(projectId: number, url: string): Promise<ImportResult> {
  await db().project.update({ where: { id: projectId }, data: { importUrl: url, importStatus: 'started', importError: null } });
  return runRecorded(projectId, url, { allowLocalPaths: true });
}
