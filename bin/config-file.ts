// The one settings file: the systemd unit's EnvironmentFile, compose's env_file and the Kubernetes Secret's
// --from-env-file are the same KEY=value lines, and every `runway` command reads it too, so an operator never
// retypes the service's environment. `--config <file>` names it; without it, /etc/runway/runway.env is read
// when it exists. Variables already in the environment win (the unit has loaded the file already; a
// `DATABASE_URL=... runway ...` on the command line overrides it for one command).
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { UsageError } from './args';

export const DEFAULT_CONFIG_FILE = '/etc/runway/runway.env';

let loaded: string | undefined;

/** The settings file this process read, if any (`runway doctor` names it). */
export const loadedConfigFile = () => loaded;

/** `argv` without `--config <file>` / `--config=<file>`, and the file named (undefined when none). */
export function takeConfigFlag(argv: string[]): { argv: string[]; file: string | undefined } {
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--config') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError('--config needs a value');
      file = value;
      i++;
    } else if (arg.startsWith('--config=')) {
      file = arg.slice('--config='.length);
      if (!file) throw new UsageError('--config needs a value');
    } else rest.push(arg);
  }
  return { argv: rest, file };
}

/**
 * Puts the file's settings into `env` where `env` has none. Returns the file read, or undefined when
 * none was named and the default does not exist. A named file that cannot be read is an error, and so is a
 * default that exists but this user may not read (running with the wrong database would be worse).
 */
export function loadConfigFile(file: string | undefined, env: Record<string, string | undefined> = process.env): string | undefined {
  const path = file ?? DEFAULT_CONFIG_FILE;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!file && code === 'ENOENT') return undefined;
    const why =
      code === 'EACCES'
        ? "permission denied (run as root or as Runway's user, e.g. sudo -u runway)"
        : code === 'ENOENT'
          ? 'no such file'
          : (err as Error).message;
    throw new UsageError(`cannot read the settings file ${path}: ${why}`);
  }
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
  loaded = path;
  return path;
}
