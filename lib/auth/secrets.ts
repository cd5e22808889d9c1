// Token generation and digests. Tokens are shown once; only SHA-256 digests are stored, and
// comparisons of digests are constant-time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 20 URL-safe characters, like Devise.friendly_token. */
export function friendlyToken(length = 20): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 1)
    .toString('base64url')
    .slice(0, length);
}

export function digest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const PERSONAL_ACCESS_TOKEN_PREFIX = 'glpat-';
export const newPersonalAccessToken = () => `${PERSONAL_ACCESS_TOKEN_PREFIX}${friendlyToken(20)}`;
