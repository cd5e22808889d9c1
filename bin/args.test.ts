// The CLI's flags, parsed by node:util's parseArgs and refused in the CLI's own words.
import { describe, expect, it } from 'vitest';
import { parseFlags } from './args';

const known = { dev: 'boolean', username: 'string', 'expires-at': 'string' } as const;
const parse = (...argv: string[]) => ({ ...parseFlags(argv, known) });
const refusal = (...argv: string[]) => {
  try {
    parseFlags(argv, known);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('parseFlags', () => {
  it('reads switches and values, spaced or with =', () => {
    expect(parse('--dev', '--username', 'root', '--expires-at=2026-01-01')).toEqual({ dev: true, username: 'root', 'expires-at': '2026-01-01' });
    expect(parse('--username=')).toEqual({ username: '' });
  });

  it('refuses what the CLI always refused, in the same words', () => {
    expect(refusal('--colour')).toBe('unknown option: --colour');
    expect(refusal('root')).toBe('unexpected argument: root');
    expect(refusal('--dev', 'extra')).toBe('unexpected argument: extra');
    expect(refusal('-h')).toBe('unexpected argument: -h');
    expect(refusal('--dev=1')).toBe('--dev takes no value');
    expect(refusal('--username')).toBe('--username needs a value');
    expect(refusal('--username', '--dev')).toBe('--username needs a value');
  });
});
