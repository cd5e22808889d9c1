// The two log formats: JSON for collectors, one readable line for a person at a terminal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, textLine } from './log';

describe('log lines', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('as text: local time, level, message and key=value fields, quoted only when needed; the stack below', () => {
    const time = new Date(2026, 11, 7, 9, 5, 3);
    expect(textLine(time, 'info', 'Runway is ready', { url: 'http://localhost:3000', database: 'embedded', port: 3000, missing: undefined })).toBe(
      '09:05:03 INFO  Runway is ready url=http://localhost:3000 database=embedded port=3000',
    );
    expect(textLine(time, 'warn', 'slow', { reason: 'two words', empty: '', routes: [{ path: '/a' }] })).toBe(
      '09:05:03 WARN  slow reason="two words" empty="" routes=[{"path":"/a"}]',
    );
    expect(textLine(time, 'info', 'migrations applied', { migrations: ['a', 'b', 'c', 'd'] })).toBe('09:05:03 INFO  migrations applied migrations=[4 items]');
    expect(textLine(time, 'error', 'start failed', { error: 'boom', stack: 'Error: boom\n    at x' })).toBe(
      '09:05:03 ERROR start failed error=boom\nError: boom\n    at x',
    );
  });

  it('writes JSON by default and text with RUNWAY_LOG_FORMAT=text; warnings to stderr', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('RUNWAY_LOG_LEVEL', 'info');
    vi.stubEnv('RUNWAY_LOG_FORMAT', '');
    log('info', 'hello', { a: 1 });
    expect(JSON.parse(String(out.mock.calls[0][0]))).toMatchObject({ level: 'info', msg: 'hello', a: 1 });
    vi.stubEnv('RUNWAY_LOG_FORMAT', 'text');
    log('warn', 'careful', { a: 1 });
    expect(String(err.mock.calls[0][0])).toMatch(/^\d\d:\d\d:\d\d WARN  careful a=1\n$/);
  });
});
