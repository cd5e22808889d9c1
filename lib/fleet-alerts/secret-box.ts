// Webhook secrets are used to sign (HMAC), so they cannot be kept as digests: they are kept encrypted
// (AES-256-GCM) under a key derived from the instance's session secret (RUNWAY_SECRET or RUNWAY_SECRET_FILE
// when configured, else the generated one the database holds), as GitLab keeps hook tokens encrypted under
// its db_key_base. With a configured secret, a copy of the database alone does not reveal them. Changing
// that secret makes them unreadable: a delivery then fails saying so, and the admin sets the secret again.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { configuredSecret, currentEnv } from '../config/env';
import { db } from '../db/client';

const VERSION = 'v1';
const INFO = 'runway fleet alert webhook secret';

export class SecretUnreadableError extends Error {}

async function instanceKey(): Promise<Buffer> {
  // The server sets NEXTAUTH_SECRET at start (lib/server/secret.ts) from the configured or generated secret.
  let secret = process.env.NEXTAUTH_SECRET ?? configuredSecret(currentEnv());
  if (!secret) {
    const row = await db().instanceSecret.findUnique({ where: { name: 'nextauth_secret' } });
    secret = row?.value;
  }
  if (!secret) throw new SecretUnreadableError('no instance secret to derive the webhook secret key from');
  return Buffer.from(hkdfSync('sha256', secret, 'runway', INFO, 32));
}

export async function sealSecret(plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await instanceKey(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
}

export async function openSecret(sealed: string): Promise<string> {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretUnreadableError('the stored webhook secret is not in a known format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', await instanceKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError('the webhook secret cannot be decrypted (the instance secret changed?): set it again');
  }
}
