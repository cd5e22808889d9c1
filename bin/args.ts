// Command flags through node:util's parseArgs (strict): `--name value` and `--name=value`; an unknown flag,
// a stray argument, a flag without its value or a switch given one is a usage error, worded as before.
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

interface ParseArgsError extends Error {
  code?: string;
}

export function parseFlags(argv: string[], known: Record<string, 'string' | 'boolean'>): Record<string, string | boolean> {
  const options = Object.fromEntries(Object.entries(known).map(([name, type]) => [name, { type }]));
  // parseArgs reads `--name --other` as --name's value when --name takes one: refused here as before.
  argv.forEach((arg, i) => {
    const name = /^--([a-z][a-z0-9-]*)$/.exec(arg)?.[1];
    if (name && known[name] === 'string' && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
  });
  try {
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
    return values as Record<string, string | boolean>;
  } catch (err) {
    throw usageError(err as ParseArgsError, argv, known);
  }
}

/** parseArgs's errors in the CLI's own words (tests/api/cli.test.ts reads them). */
function usageError(err: ParseArgsError, argv: string[], known: Record<string, 'string' | 'boolean'>): Error {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1];
  const name = flag?.replace(/^-+/, '').replace(/=.*$/, '');
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      // A flag that is not --lower-case-words is a stray argument, as `-x` or `--X` always were.
      return flag && /^--[a-z][a-z0-9-]*$/.test(flag) ? new UsageError(`unknown option: ${flag}`) : new UsageError(`unexpected argument: ${flag ?? argv[0]}`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument: ${/'([^']*)'/.exec(err.message)?.[1] ?? ''}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(name && known[name] === 'boolean' ? `--${name} takes no value` : `--${name} needs a value`);
    default:
      return err;
  }
}

export function requireFlag(flags: Record<string, string | boolean>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}
