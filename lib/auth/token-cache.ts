// What authenticating a personal access token reads (the token's row and its user's), from a per-process
// cache kept exact by the credential change notifications (lib/notifications/notified-cache.ts): every
// write to a token or a user announces its id on commit, so a revoked, rotated or deleted token, or a
// blocked, deleted or demoted user, is refused on the very next request on every instance. A request served
// from the cache costs the database no statement (one Sync on the LISTEN connection, shared by the requests
// that arrive together), where a read costs one. Unknown and revoked tokens are not cached: each costs a
// read, as before.
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import type { User } from '../db/generated/client';
import { CREDENTIAL_CHANGES_CHANNEL } from '../notifications/hub';
import { notifiedCache, type Loaded } from '../notifications/notified-cache';
import { userFromRow } from './lookups';

/** A token as authentication weighs it, with its user. */
export interface TokenCredential {
  tokenId: number;
  scopes: string[];
  expiresAt: Date | null;
  revoked: boolean;
  lastUsedAt: Date | null;
  /** Shared by every request served from the same entry: frozen, never to be changed. */
  user: Readonly<User>;
}

/**
 * An entry lives at most this long without a notification (a safety net against a lost one); a token's
 * own changes never wait for it.
 */
export const TOKEN_CACHE_TTL_MS = 10 * 60 * 1000;
/** Tokens in use at once per process, far above any fleet's; past it, new tokens are read every time. */
const MAX_CACHED_TOKENS = 50_000;

/** `{"table": ..., "id": ...}` names the row whose entries are dropped; anything else drops them all. */
function changedRows(payload: string): string[] | null {
  try {
    const v = JSON.parse(payload) as { table?: unknown; id?: unknown };
    return typeof v.table === 'string' && Number.isInteger(v.id) ? [`${v.table}:${String(v.id)}`] : null;
  } catch {
    return null;
  }
}

const cache = () =>
  notifiedCache<TokenCredential>({
    name: 'token',
    channel: CREDENTIAL_CHANGES_CHANNEL,
    changed: changedRows,
    ttlMs: TOKEN_CACHE_TTL_MS,
    maxEntries: MAX_CACHED_TOKENS,
  });

interface TokenRow {
  token_id: number;
  token_scopes: string[];
  token_expires_at: Date | null;
  token_revoked: boolean;
  token_last_used_at: Date | null;
  [userColumn: string]: unknown;
}

async function readToken(tokenDigest: string): Promise<Loaded<TokenCredential> | null> {
  // Token and user in one indexed query.
  const rows = await queryRows<TokenRow>(sql`
    SELECT t.id AS token_id, t.scopes AS token_scopes, t.expires_at AS token_expires_at,
           t.revoked AS token_revoked, t.last_used_at AS token_last_used_at, u.*, u.state::text AS state
      FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_digest = ${tokenDigest}`);
  const row = rows[0];
  if (!row) return null;
  const user = Object.freeze(userFromRow(row, 'token_'));
  return {
    value: {
      tokenId: row.token_id,
      scopes: row.token_scopes,
      expiresAt: row.token_expires_at,
      revoked: row.token_revoked,
      lastUsedAt: row.token_last_used_at,
      user,
    },
    dependsOn: [`personal_access_tokens:${row.token_id}`, `users:${user.id}`],
  };
}

/** The token whose digest is `tokenDigest`, with its user, or null for an unknown token. */
export function findTokenCredential(tokenDigest: string): Promise<TokenCredential | null> {
  return cache().get(tokenDigest, () => readToken(tokenDigest), { keep: (t) => !t.revoked });
}

/** Tokens cached in this process (tests). */
export const cachedTokenCount = (): number => cache().size;
