// Tagged SQL fragments for $queryRaw, re-exported so domain code need not reach into the generated client.
import { Prisma } from './generated/client';

export const sql = Prisma.sql;
export const join = Prisma.join;
export const raw = Prisma.raw;
export const empty = Prisma.empty;
export type Sql = Prisma.Sql;

/**
 * The user's text for a LIKE/ILIKE pattern, with `%`, `_` and the escape character `\` made literal.
 * Prisma's `contains`/`startsWith`/`equals` + `mode: 'insensitive'` pass their value into LIKE unescaped,
 * so any user text given to them goes through this too.
 */
export const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%`: matches values that contain the user's text literally. */
export const containsPattern = (s: string): string => `%${likeEscape(s)}%`;
