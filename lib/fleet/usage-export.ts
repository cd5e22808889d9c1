// The runner usage export (Runway's take on GitLab Ultimate's runner usage report): per runner and project,
// the jobs that finished in a period, their count, failures, total and median duration and queued time, as
// CSV. GitLab e-mails a report of at most 1,000 projects, folding the rest into "<Other projects>"; Runway
// streams every row at once, reading the fleet a batch of runners at a time, so an export of any size holds
// one batch in memory and its statements stay short (a pooler in transaction mode is fine).
import type { UsagePeriod, UsageRow, UsageScope } from './queries';
import { usageRows, usageRunnerBatch } from './queries';

/** Runners read per statement: a batch's rows (runners × projects) stay in the thousands. */
export const USAGE_BATCH_RUNNERS = 500;

export const USAGE_CSV_HEADER = [
  'Runner ID',
  'Runner type',
  'Runner description',
  'Project ID',
  'Project path',
  'Job count',
  'Failed job count',
  'Failed share (%)',
  'Total duration (minutes)',
  'Median duration (minutes)',
  'Total queued duration (minutes)',
  'Median queued duration (minutes)',
] as const;

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return
 * first) gets a leading apostrophe, as GitLab's CsvBuilder does: descriptions and paths are user input.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const minutes = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 60) * 100) / 100);

export function usageCsvLine(row: UsageRow): string {
  const failedShare = row.jobs ? Math.round((row.failed / row.jobs) * 1000) / 10 : 0;
  return `${[
    row.runner_id,
    row.runner_type,
    row.runner_description,
    row.project_id,
    row.project_path,
    row.jobs,
    row.failed,
    failedShare,
    minutes(row.total_s),
    minutes(row.median_s),
    minutes(row.queued_s),
    minutes(row.median_queued_s),
  ]
    .map(csvField)
    .join(',')}\r\n`;
}

/**
 * The export as a byte stream: the header, then each batch of runners' rows in runner and project order.
 * Pulled by the client: the next batch is read only when the previous one has been taken, and a client
 * that leaves cancels the walk.
 */
export function usageCsvStream(scope: UsageScope, period: UsagePeriod, batchRunners = USAGE_BATCH_RUNNERS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${USAGE_CSV_HEADER.map(csvField).join(',')}\r\n`));
        return;
      }
      // Batches whose runners ran nothing in the period yield no rows: go on until one does, or the end.
      for (;;) {
        const ids = await usageRunnerBatch(scope, after, batchRunners);
        if (!ids.length) {
          controller.close();
          return;
        }
        after = ids[ids.length - 1];
        const rows = await usageRows(ids, period);
        if (rows.length) {
          controller.enqueue(encoder.encode(rows.map(usageCsvLine).join('')));
          return;
        }
      }
    },
  });
}
