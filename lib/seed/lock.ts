// Demo seeds look for their rows and insert what is missing. Two instances started with --demo at once (or
// two test processes) would both find nothing and both insert; one transaction-level advisory lock makes the
// second wait and then find the first's rows. A transaction's lock survives PgBouncer's transaction mode.
import type { Prisma } from '../db/client';

// Arbitrary but fixed, and apart from the migrations' key.
const DEMO_SEED_LOCK_KEY = 727_001;

/** Call first inside a seed's transaction; the lock ends with it. */
export async function lockDemoSeed(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${DEMO_SEED_LOCK_KEY}::bigint)::text`;
}
