// Following a runner usage export (GET /runners/usage, /groups/:id/runners/usage) as its CSV arrives:
// rows and runners so far, for the dashboard's progress bar against the X-Runway-Usage-Runners total.
// The rows come in runner order, so a runner is counted when its first row starts.

export interface UsageProgress {
  /** Feeds the next piece of the text (any cut, even inside a quoted field). */
  push(text: string): void;
  /** Data rows complete so far (the header not counted). */
  readonly rows: number;
  /** Runners whose rows have started. */
  readonly runners: number;
}

export function usageProgress(): UsageProgress {
  let inQuotes = false;
  let atRowStart = true;
  let field = '';
  let firstField = true;
  let header = true;
  let rows = 0;
  let runners = 0;
  let lastRunner: string | null = null;
  return {
    push(text) {
      for (const ch of text) {
        if (inQuotes) {
          // A doubled quote reads as leaving and re-entering the quotes: the same state either way.
          if (ch === '"') inQuotes = false;
          continue;
        }
        if (ch === '"') {
          inQuotes = true;
          continue;
        }
        if (ch === '\r') continue;
        if (ch === '\n') {
          if (!header) rows += 1;
          header = false;
          atRowStart = true;
          firstField = true;
          field = '';
          continue;
        }
        if (atRowStart) atRowStart = false;
        if (firstField) {
          if (ch === ',') {
            firstField = false;
            if (!header && field !== lastRunner) {
              runners += 1;
              lastRunner = field;
            }
          } else field += ch;
        }
      }
    },
    get rows() {
      return rows;
    },
    get runners() {
      return runners;
    },
  };
}

/** The file name a Content-Disposition header gives (`attachment; filename="x.csv"`), else `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename="([^"]+)"/);
  return match ? match[1] : fallback;
}

/** The last full month (UTC) as the export's default period: [first day, last day], YYYY-MM-DD. */
export function lastFullMonth(now = new Date()): { from: string; to: string } {
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return {
    from: iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))),
    to: iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))),
  };
}
