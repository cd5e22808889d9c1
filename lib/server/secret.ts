// NEXTAUTH_SECRET: taken from the environment, else generated once and kept in the database, so every
// instance on one database signs and reads the same sessions with no setting at all.
import { randomBytes } from 'node:crypto';
import { db } from '../db/client';

const AUTH_SECRET_NAME = 'nextauth_secret';

/** The named instance secret: the first instance to ask creates it, every later one reads that one. */
async function instanceSecret(name: string): Promise<string> {
  const prisma = db();
  // ON CONFLICT DO NOTHING: instances starting together race here, and the first insert wins for all.
  await prisma.$executeRaw`
    INSERT INTO instance_secrets (name, value) VALUES (${name}, ${randomBytes(32).toString('base64url')})
    ON CONFLICT (name) DO NOTHING`;
  const row = await prisma.instanceSecret.findUniqueOrThrow({ where: { name } });
  return row.value;
}

/** Sets NEXTAUTH_SECRET for this process (needs the migrated database). */
export async function ensureAuthSecret(): Promise<void> {
  if (process.env.NEXTAUTH_SECRET) return;
  process.env.NEXTAUTH_SECRET = await instanceSecret(AUTH_SECRET_NAME);
}
