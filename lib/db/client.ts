// The one Prisma client of a process. Route handlers, the CLI and the launcher all share it through
// globalThis, because Next.js may evaluate this module more than once (one copy per bundle).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

type Holder = { prisma?: PrismaClient; url?: string };
const holder = globalThis as typeof globalThis & { __runwayDb?: Holder };

export function databaseUrl(): string {
  const url = process.env.RUNWAY_RESOLVED_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('No database: start Runway with `runway start`, or set DATABASE_URL');
  return url;
}

export function db(): PrismaClient {
  const h = (holder.__runwayDb ??= {});
  const url = databaseUrl();
  if (!h.prisma || h.url !== url) {
    const max = Number(process.env.RUNWAY_DB_POOL_MAX ?? 10);
    h.prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max }),
      // Prisma's defaults (wait 2 s for a connection, 5 s per transaction) turn a burst of writes into
      // 500s on a small pool; on the embedded database every transaction queues for its one connection.
      transactionOptions: { maxWait: 15_000, timeout: 30_000 },
    });
    h.url = url;
  }
  return h.prisma;
}

export async function disconnectDb(): Promise<void> {
  const h = holder.__runwayDb;
  if (h?.prisma) await h.prisma.$disconnect();
  if (h) h.prisma = undefined;
}

export type Db = PrismaClient;
export type { Prisma } from './generated/client';
