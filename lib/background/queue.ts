// A small job queue on the background_jobs table. Claiming uses FOR UPDATE SKIP LOCKED, so any number of
// Runway instances on one database share the work and a job runs once. Jobs left "running" by a crashed
// instance are taken again after STALE_AFTER.
import { db, type Prisma } from '../db/client';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export const MAX_ATTEMPTS = 3;
const STALE_AFTER = '15 minutes';

/** Queues a job; pass the transaction client to queue it atomically with the caller's write. */
export async function enqueueJob(kind: string, payload: Record<string, unknown>, client: Client = db()): Promise<number> {
  const job = await client.backgroundJob.create({ data: { kind, payload: payload as Prisma.InputJsonValue } });
  wakeWorker();
  return job.id;
}

type WakeHolder = typeof globalThis & { __runwayWakeWorker?: () => void };

/**
 * Asks this process's worker to look at the queue soon. Route handlers and the worker may be different
 * module instances (Next.js bundles), so the hook lives on globalThis. Other instances find the job on
 * their next idle poll.
 */
export function wakeWorker(): void {
  (globalThis as WakeHolder).__runwayWakeWorker?.();
}

export function setWakeHook(hook: (() => void) | undefined): void {
  (globalThis as WakeHolder).__runwayWakeWorker = hook;
}

/** Takes the oldest queued (or stale running) job, marking it running in the same statement. */
export async function claimJob(): Promise<ClaimedJob | null> {
  const rows = await db().$queryRawUnsafe<ClaimedJob[]>(`
    UPDATE background_jobs SET status = 'running', locked_at = now(), attempts = attempts + 1
     WHERE id = (
       SELECT id FROM background_jobs
        WHERE status = 'queued'
           OR (status = 'running' AND locked_at < now() - interval '${STALE_AFTER}' AND attempts < ${MAX_ATTEMPTS})
        ORDER BY id
        FOR UPDATE SKIP LOCKED
        LIMIT 1)
    RETURNING id, kind, payload, attempts`);
  return rows[0] ?? null;
}

export async function finishJob(id: number): Promise<void> {
  await db().backgroundJob.update({ where: { id }, data: { status: 'finished', finishedAt: new Date(), lastError: null } });
}

export async function failJob(id: number, error: string): Promise<void> {
  await db().backgroundJob.update({ where: { id }, data: { status: 'failed', finishedAt: new Date(), lastError: error.slice(0, 2000) } });
}
