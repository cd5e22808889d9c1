// GET /personal_access_tokens: PersonalAccessTokensFinder's filters, index-backed by (user_id, id).
import { db, type Prisma } from '../db/client';
import { likeEscape } from '../db/sql';
import type { Parsed } from '../api/params';
import type { listTokensParams } from './schema';

type ListInput = Parsed<typeof listTokensParams>;
const todayDate = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

export function tokensWhere(input: ListInput, userId: number | undefined): Prisma.PersonalAccessTokenWhereInput {
  const and: Prisma.PersonalAccessTokenWhereInput[] = [];
  if (userId !== undefined) and.push({ userId });
  if (input.revoked !== undefined && input.revoked !== null) and.push({ revoked: input.revoked });
  if (input.state === 'active') and.push({ revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: todayDate() } }] });
  if (input.state === 'inactive') and.push({ OR: [{ revoked: true }, { expiresAt: { lte: todayDate() } }] });
  if (input.created_before) and.push({ createdAt: { lte: input.created_before } });
  if (input.created_after) and.push({ createdAt: { gte: input.created_after } });
  if (input.last_used_before) and.push({ lastUsedAt: { lte: input.last_used_before } });
  if (input.last_used_after) and.push({ lastUsedAt: { gte: input.last_used_after } });
  if (input.expires_before) and.push({ expiresAt: { lt: new Date(`${input.expires_before}T00:00:00Z`) } });
  if (input.expires_after) and.push({ expiresAt: { gt: new Date(`${input.expires_after}T00:00:00Z`) } });
  // Prisma puts `contains` into ILIKE as given: the user's `%`, `_` and `\` are escaped to stay literal.
  if (input.search) and.push({ name: { contains: likeEscape(input.search), mode: 'insensitive' } });
  return and.length ? { AND: and } : {};
}

const ORDERS: Record<string, Prisma.PersonalAccessTokenOrderByWithRelationInput[]> = {
  created_asc: [{ createdAt: 'asc' }, { id: 'asc' }],
  created_desc: [{ createdAt: 'desc' }, { id: 'desc' }],
  expires_asc: [{ expiresAt: 'asc' }, { id: 'asc' }],
  expires_desc: [{ expiresAt: 'desc' }, { id: 'desc' }],
  last_used_asc: [{ lastUsedAt: 'asc' }, { id: 'asc' }],
  last_used_desc: [{ lastUsedAt: 'desc' }, { id: 'desc' }],
  name_asc: [{ name: 'asc' }, { id: 'asc' }],
  name_desc: [{ name: 'desc' }, { id: 'desc' }],
};

export function listTokens(where: Prisma.PersonalAccessTokenWhereInput, sort: string | undefined) {
  const orderBy = ORDERS[sort ?? ''] ?? [{ id: 'asc' as const }];
  return {
    fetch: (offset: number, limit: number) => db().personalAccessToken.findMany({ where, orderBy, skip: offset, take: limit }),
    count: () => db().personalAccessToken.count({ where }),
  };
}
