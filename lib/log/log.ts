// Structured logs on stdout (warnings and errors on stderr), one entry a line: JSON by default, or readable
// text for a person at a terminal (RUNWAY_LOG_FORMAT=text, the default of --demo and --dev). Never pass a
// token or a password here.

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function logEnabled(level: Level): boolean {
  const min = (process.env.RUNWAY_LOG_LEVEL as Level | 'silent' | undefined) ?? 'info';
  return ORDER[level] >= (ORDER[min] ?? ORDER.info);
}

/** A field's value as text: bare when it is one word, else quoted; objects as JSON; a long list by its length. */
function textValue(value: unknown): string {
  // A terminal line stays one line: the JSON format keeps the whole list (26 migrations, the warmed routes).
  if (Array.isArray(value) && value.length > 3) return `[${value.length} items]`;
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return typeof value === 'string' && (text === '' || /[\s"=]/.test(text)) ? JSON.stringify(text) : String(text);
}

/** One readable line: local time, level, message, then key=value; a stack trace on the lines below. */
export function textLine(time: Date, level: Level, msg: string, fields: Record<string, unknown>): string {
  const clock = time.toTimeString().slice(0, 8);
  const { stack, ...rest } = fields;
  const pairs = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${textValue(v)}`);
  const line = [clock, level.toUpperCase().padEnd(5), msg, ...pairs].join(' ');
  return typeof stack === 'string' ? `${line}\n${stack}` : line;
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (!logEnabled(level)) return;
  const time = new Date();
  const line =
    process.env.RUNWAY_LOG_FORMAT === 'text' ? textLine(time, level, msg, fields) : JSON.stringify({ time: time.toISOString(), level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

export function logError(msg: string, err: unknown, fields: Record<string, unknown> = {}): void {
  const e = err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
  log('error', msg, { ...fields, ...e });
}
