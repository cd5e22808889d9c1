// The dashboard's session: a signed next-auth JWT in a cookie. The API reads it directly so pages call
// the same /api/v4 handlers as every other client. The JWT only names the session (`sid`): whether it is
// still signed in is the user_sessions row's to say (lib/sessions).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decode } from 'next-auth/jwt';
import { externalUrl } from '../config/env';

export const sessionCookieName = () => (externalUrl().startsWith('https://') ? '__Secure-next-auth.session-token' : 'next-auth.session-token');

export function authSecret(): string {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start Runway with `runway start`');
  return secret;
}

/** A cookie value as sent; undefined when its %-escapes are malformed (the cookie is then ignored). */
function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The session cookie (or next-auth's numbered chunks of it). Only Runway's own cookies are decoded: the
 * browser also carries other sites' cookies for this host, and a malformed one must not matter.
 */
function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  const chunks: Record<string, string | undefined> = {};
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const key = part.slice(0, i).trim();
    if (key === name) return decodeCookie(part.slice(i + 1).trim());
    if (key.startsWith(`${name}.`)) chunks[key.slice(name.length + 1)] = decodeCookie(part.slice(i + 1).trim());
  }
  const keys = Object.keys(chunks).sort((a, b) => Number(a) - Number(b));
  const values = keys.map((k) => chunks[k]);
  // A malformed chunk spoils the whole session: not signed in.
  return keys.length && values.every((v) => v !== undefined) ? values.join('') : undefined;
}

export interface SessionClaims {
  userId: number;
  sid: string;
}

export async function readSession(req: Request): Promise<SessionClaims | null> {
  const raw = readCookie(req.headers.get('cookie'), sessionCookieName());
  if (!raw) return null;
  try {
    const token = await decode({ token: raw, secret: authSecret() });
    const userId = Number(token?.sub);
    if (!token || !Number.isSafeInteger(userId) || typeof token.sid !== 'string') return null;
    if (typeof token.exp === 'number' && token.exp * 1000 < Date.now()) return null;
    return { userId, sid: token.sid };
  } catch {
    return null;
  }
}

/** The CSRF token of a session: an HMAC of its random id, handed to the dashboard by the server. */
export function csrfTokenFor(sid: string): string {
  return createHmac('sha256', authSecret()).update(`csrf:${sid}`).digest('base64url');
}

export function csrfTokenValid(sid: string, presented: string | null): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(sid));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
