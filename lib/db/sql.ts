// Tagged SQL fragments for $queryRaw, re-exported so domain code need not reach into the generated client.
import { Prisma } from './generated/client';

export const sql = Prisma.sql;
export const join = Prisma.join;
export const raw = Prisma.raw;
export const empty = Prisma.empty;
export type Sql = Prisma.Sql;
