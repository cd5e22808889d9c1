// A small, strict flag parser: `--name value` and `--name=value`; unknown flags are errors.
export class UsageError extends Error {}

export function parseFlags(argv: string[], known: Record<string, 'string' | 'boolean'>): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument: ${arg}`);
    const [, name, inline] = m;
    const kind = known[name];
    if (!kind) throw new UsageError(`unknown option: --${name}`);
    if (kind === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      out[name] = true;
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      out[name] = value;
    }
  }
  return out;
}

export function requireFlag(flags: Record<string, string | boolean>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}
