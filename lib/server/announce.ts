// What `runway start` says once it serves. The demo and development (`--demo`, `--dev`) print the plain
// start message, generated root password included, for the person at the terminal; a production start
// logs JSON only (one object a line, as every other event) and keeps the password out of the log.
import { buildInfo } from '../config/build-info';
import { log, logError } from '../log/log';
import { removeExpiredRootPassword, writeInitialRootPassword } from './root-password';
import { startMessage, type StartFacts } from './start-message';

export async function announceStart(facts: StartFacts, opts: { banner: boolean }): Promise<void> {
  if (opts.banner) {
    console.log(`\n${startMessage(facts)}\n`);
    return;
  }
  const expired = await removeExpiredRootPassword().catch(() => undefined);
  if (expired) log('info', 'deleted the initial root password file, a day after it was written', { password_file: expired });
  if (facts.generatedRootPassword)
    await storeRootPassword(facts.generatedRootPassword, (file) => log('info', 'created root with a generated password', { password_file: file }));
  const { version, revision } = buildInfo();
  log('info', 'Runway is ready', { url: facts.url, database: facts.embedded ? 'embedded' : 'postgresql', version, revision });
}

/**
 * Writes a generated root password to its file and reports the file (never the password). When it
 * cannot be written, says how to set a password instead: root exists, and nobody knows its password.
 */
export async function storeRootPassword(password: string, report: (file: string) => void): Promise<void> {
  try {
    report(await writeInitialRootPassword(password));
  } catch (err) {
    logError("could not write the initial root password file; set root's password with `runway reset-password --username root`", err);
  }
}
