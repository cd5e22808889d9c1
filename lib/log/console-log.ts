// In production, stdout is a JSON log stream: Runway's own events are JSON already (./log), and what
// libraries print through the console (Next.js announces its config load, warns about settings) is turned
// into entries of the same shape, one line each, with the text as `msg`.
import { format } from 'node:util';
import { log } from './log';

const LEVELS = { log: 'info', info: 'info', debug: 'debug', warn: 'warn', error: 'error' } as const;
const ANSI = /\u001b\[[0-9;]*m/g;

/** The console's text as a log message: colours and Next.js's status glyphs (✓ ⚠ ⨯ ○ ▲ …) removed. */
export function consoleMessage(args: unknown[]): string {
  return format(...args)
    .replace(ANSI, '')
    .replace(/^\s*[✓⚠⨯○▲»●]\s*/u, '')
    .trim();
}

export function consoleAsJson(): void {
  for (const [method, level] of Object.entries(LEVELS) as [keyof typeof LEVELS, (typeof LEVELS)[keyof typeof LEVELS]][]) {
    console[method] = (...args: unknown[]) => {
      const msg = consoleMessage(args);
      if (msg) log(level, msg, { source: 'console' });
    };
  }
}
