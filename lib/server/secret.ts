// NEXTAUTH_SECRET: taken from the environment, else generated once and kept in the data folder so
// sessions survive restarts of the embedded default.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../config/paths';

export async function ensureAuthSecret(): Promise<void> {
  if (process.env.NEXTAUTH_SECRET) return;
  const file = path.join(dataDir(), 'nextauth-secret');
  let secret = await readFile(file, 'utf8').then((s) => s.trim(), () => '');
  if (secret.length < 32) {
    secret = randomBytes(32).toString('base64url');
    await mkdir(dataDir(), { recursive: true });
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
  }
  process.env.NEXTAUTH_SECRET = secret;
}
