// A generated root password never goes to a log. Outside the demo and development, Runway writes it once
// to <data dir>/initial_root_password, readable by its owner only, and logs where the file is (as GitLab
// keeps /etc/gitlab/initial_root_password). The file is deleted at the first start a day after it was written.
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../config/paths';

export const ROOT_PASSWORD_FILE = 'initial_root_password';
const KEEP_MS = 24 * 60 * 60 * 1000;

export const rootPasswordFile = () => path.join(dataDir(), ROOT_PASSWORD_FILE);

/** Writes the file (replacing a leftover one, so its mode is always 0600) and returns its path. */
export async function writeInitialRootPassword(password: string): Promise<string> {
  const file = rootPasswordFile();
  await mkdir(path.dirname(file), { recursive: true });
  // Removed, then created exclusively: never written through a link or into a file someone else can read.
  await rm(file, { force: true });
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(
      [
        '# The password Runway generated for the administrator `root` when it created the account.',
        "# It no longer works once root's password has been changed (in the dashboard or with",
        '# `runway reset-password --username root`, which also sets a new one when this one is lost).',
        '# Runway deletes this file at its first start 24 hours after writing it.',
        '',
        `Password: ${password}`,
        '',
      ].join('\n'),
    );
  } finally {
    await handle.close();
  }
  return file;
}

/** Deletes the file once it is a day old; returns its path when it did. */
export async function removeExpiredRootPassword(now = Date.now()): Promise<string | undefined> {
  const file = rootPasswordFile();
  const info = await stat(file).catch(() => undefined);
  if (!info || now - info.mtimeMs < KEEP_MS) return undefined;
  await rm(file, { force: true });
  return file;
}
