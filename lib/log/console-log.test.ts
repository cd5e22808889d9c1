import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleAsJson, consoleMessage } from './console-log';

const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn, error: console.error };
afterEach(() => {
  Object.assign(console, saved);
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('console output in production', () => {
  it("is Next.js's text without its colours and status glyph", () => {
    expect(consoleMessage(['\u001b[32m\u001b[1m✓\u001b[22m\u001b[39m Running next.config.mjs took 383ms'])).toBe('Running next.config.mjs took 383ms');
    expect(consoleMessage([' \u001b[33m⚠\u001b[39m Invalid %s', 'option'])).toBe('Invalid option');
    expect(consoleMessage(['count: %d', 3, { a: 1 }])).toBe('count: 3 { a: 1 }');
  });

  it('becomes one JSON log entry a call, multi-line text included, at the matching level', () => {
    vi.stubEnv('RUNWAY_LOG_LEVEL', 'debug');
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
    consoleAsJson();
    console.log('✓ Ready');
    console.info('two\nlines');
    console.warn('⚠ careful');
    console.error(new Error('boom'));
    console.log('   ');
    const lines = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    expect(lines(out)).toEqual([
      expect.objectContaining({ level: 'info', msg: 'Ready', source: 'console' }),
      expect.objectContaining({ level: 'info', msg: 'two\nlines', source: 'console' }),
    ]);
    expect(lines(err)).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'careful' }),
      expect.objectContaining({ level: 'error', msg: expect.stringMatching(/^Error: boom\n\s+at /) }),
    ]);
  });
});
