// Structured JSON logs on stdout, one object a line. Never pass a token or a password here.

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function logEnabled(level: Level): boolean {
  const min = (process.env.RUNWAY_LOG_LEVEL as Level | 'silent' | undefined) ?? 'info';
  return ORDER[level] >= (ORDER[min] ?? ORDER.info);
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (!logEnabled(level)) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

export function logError(msg: string, err: unknown, fields: Record<string, unknown> = {}): void {
  const e = err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
  log('error', msg, { ...fields, ...e });
}
