// How the fleet overview writes numbers, days and queued durations (seconds from the API).
const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number | null | undefined) => (n === null || n === undefined ? '–' : count.format(n));

/** "Nov 24" for a YYYY-MM-DD day (UTC, as the API counts days). */
export const formatDay = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Seconds as "850 ms", "12.5 s", "3 min 20 s", "1 h 5 min"; "–" when there is none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
  if (seconds < 3600) {
    const m = Math.floor(seconds / 60);
    const s = Math.round(seconds % 60);
    return s ? `${m} min ${s} s` : `${m} min`;
  }
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return m ? `${h} h ${m} min` : `${h} h`;
}

const UNITS = [
  { unit: 'ms', seconds: 0.001 },
  { unit: 's', seconds: 1 },
  { unit: 'min', seconds: 60 },
  { unit: 'h', seconds: 3600 },
] as const;

/**
 * One unit for a whole axis, chosen from its largest value (so ticks never read "0 ms … 10 s"), and the
 * tick formatter in that unit: at most one decimal, no trailing zeros.
 */
export function durationAxis(values: readonly (number | null | undefined)[]): { unit: string; format: (seconds: number) => string } {
  const max = Math.max(0, ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
  const { unit, seconds } = max < 1 ? UNITS[0] : max < 60 ? UNITS[1] : max < 3600 ? UNITS[2] : UNITS[3];
  return { unit, format: (v: number) => `${Number((v / seconds).toFixed(1))} ${unit}` };
}
