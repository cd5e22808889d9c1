// Which database this process uses, as a stable random id kept in the database itself (one row of
// database_identity). What Runway keeps on disk for a database is keyed by it, so two databases used
// from one data folder (a test run beside the demo, a changed DATABASE_URL) never share files.
import { connection } from './client';

const holder = globalThis as typeof globalThis & { __runwayDatabaseIdentity?: { url: string; id: Promise<string> } };

async function readOrCreate(): Promise<string> {
  const prisma = connection().prisma;
  // The migration made the row; should it be gone, the first caller makes a new one and everyone reads it.
  await prisma.$executeRaw`INSERT INTO database_identity (id) VALUES (1) ON CONFLICT (id) DO NOTHING`;
  const row = await prisma.databaseIdentity.findUniqueOrThrow({ where: { id: 1 }, select: { instanceId: true } });
  return row.instanceId;
}

/** This database's instance id (a UUID); read once per process and database URL, it never changes. */
export function databaseInstanceId(): Promise<string> {
  const url = connection().url;
  const cached = holder.__runwayDatabaseIdentity;
  if (cached?.url === url) return cached.id;
  const id = readOrCreate();
  holder.__runwayDatabaseIdentity = { url, id };
  // A failed read is not remembered: the next caller tries again.
  id.catch(() => {
    if (holder.__runwayDatabaseIdentity?.id === id) holder.__runwayDatabaseIdentity = undefined;
  });
  return id;
}
