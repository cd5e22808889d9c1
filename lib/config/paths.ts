import { existsSync } from 'node:fs';
import path from 'node:path';

/** The package root: Next.js and the CLI both run with it as the working directory. */
export function projectRoot(): string {
  return process.env.RUNWAY_ROOT ?? process.cwd();
}

/** A source checkout has app/; the packaged artifact has only the build (and is read-only when installed). */
export function isCheckout(): boolean {
  return existsSync(path.join(projectRoot(), 'app'));
}

/** Where the service keeps its state when RUNWAY_DATA_DIR is not set (the unit, the image and Kubernetes set it). */
export const SERVICE_DATA_DIR = '/var/lib/runway';

/**
 * Where the embedded database and repository mirrors live: RUNWAY_DATA_DIR; else systemd's state folder
 * (STATE_DIRECTORY, from StateDirectory=); else `.data` in a checkout (git-ignored); else /var/lib/runway,
 * never inside the artifact, which a service user cannot write to.
 */
export function dataDir(): string {
  if (process.env.RUNWAY_DATA_DIR) return path.resolve(projectRoot(), process.env.RUNWAY_DATA_DIR);
  const state = process.env.STATE_DIRECTORY?.split(':')[0];
  if (state) return path.resolve(state);
  return isCheckout() ? path.join(projectRoot(), '.data') : SERVICE_DATA_DIR;
}
