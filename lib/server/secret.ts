// The secret that signs dashboard sessions, which next-auth and lib/auth/session read as NEXTAUTH_SECRET.
// Configured (RUNWAY_SECRET, a key file in RUNWAY_SECRET_FILE, or NEXTAUTH_SECRET), it stays out of the
// database, as GitLab keeps secrets.yml beside its database and not in it: a copy of the database then
// holds nothing that signs a session. Not configured (the zero-configuration demo), it is generated once
// and kept in the database, so every instance on one database signs and reads the same sessions.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { configuredSecret, readEnv } from '../config/env';
import { db } from '../db/client';
import { log } from '../log/log';

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

/** A key file others may read is still used (container secrets are mounted so), but said once. */
function warnIfWorldReadable(file: string | undefined): void {
  if (!file || process.platform === 'win32') return;
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o004) log('warn', 'RUNWAY_SECRET_FILE is readable by every user of this machine: chmod 600 it', { mode: mode.toString(8) });
}

// This process's generated secret, so that a second call does not take it for a configured one.
let generated: string | undefined;

/** Sets NEXTAUTH_SECRET for this process (needs the migrated database). */
export async function ensureAuthSecret(): Promise<void> {
  const env = readEnv();
  const configured = configuredSecret(env);
  if (configured === undefined || configured === generated) {
    generated = await instanceSecret(AUTH_SECRET_NAME);
    process.env.NEXTAUTH_SECRET = generated;
    return;
  }
  warnIfWorldReadable(env.RUNWAY_SECRET_FILE);
  // Read once: from here on the process carries the secret under the one name next-auth reads.
  process.env.NEXTAUTH_SECRET = configured;
  delete process.env.RUNWAY_SECRET;
  delete process.env.RUNWAY_SECRET_FILE;
  // A secret generated before one was configured signs nothing now; a copy of the database must not carry it.
  const removed = await db().instanceSecret.deleteMany({ where: { name: AUTH_SECRET_NAME } });
  if (removed.count) log('info', 'removed the generated session secret from the database: a secret is configured');
}
