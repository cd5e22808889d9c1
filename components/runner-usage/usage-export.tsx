'use client';
// "Export runner usage": a period and a runner type, then the CSV of GET /runners/usage (admins) or
// GET /groups/:id/runners/usage (group Owners), downloaded as it streams, with a progress bar against the
// runners the file covers (X-Runway-Usage-Runners). GitLab Ultimate e-mails this report; here it arrives
// at once, and Cancel stops it.
import { Download } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useApi } from '../dashboard/session-provider';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { inputClass } from '../ui/input';
import { InlineError } from '../ui/states';
import { toast } from '../ui/toast';
import { errorText } from '@/lib/client/error-text';
import { attachmentName, lastFullMonth, usageProgress } from '@/lib/client/usage-export';

const TYPES = [
  { value: '', label: 'All runner types' },
  { value: 'instance_type', label: 'Instance' },
  { value: 'group_type', label: 'Group' },
  { value: 'project_type', label: 'Project' },
];

const counted = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

type State = { kind: 'idle' } | { kind: 'running'; rows: number; runners: number; total: number | null } | { kind: 'failed'; error: unknown };

/** `groupId` exports that group's runners (Owners); without it, the instance's (admins). */
export function UsageExport({ groupId }: { groupId?: number }) {
  const api = useApi();
  const id = useId();
  const defaults = lastFullMonth();
  const [from, setFrom] = useState(defaults.from);
  const [to, setTo] = useState(defaults.to);
  const [type, setType] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const running = state.kind === 'running';

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: 'running', rows: 0, runners: 0, total: null });
    try {
      const path = groupId ? `/groups/${groupId}/runners/usage` : '/runners/usage';
      const res = await api.stream(path, { from, to, runner_type: type }, controller.signal);
      const total = Number(res.headers.get('X-Runway-Usage-Runners') ?? NaN);
      const progress = usageProgress();
      const parts: Uint8Array[] = [];
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        progress.push(decoder.decode(value, { stream: true }));
        setState({ kind: 'running', rows: progress.rows, runners: progress.runners, total: Number.isFinite(total) ? total : null });
      }
      const name = attachmentName(res.headers.get('Content-Disposition'), 'runner-usage.csv');
      const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ kind: 'idle' });
      toast(
        progress.rows
          ? `Exported ${counted(progress.rows, 'row')} for ${counted(progress.runners, 'runner')} to ${name}.`
          : `No runner ran a job in that period: ${name} holds the header only.`,
      );
    } catch (error) {
      if (controller.signal.aborted) {
        setState({ kind: 'idle' });
        toast('Export canceled.');
      } else setState({ kind: 'failed', error });
    } finally {
      abort.current = null;
    }
  }

  const percent = state.kind === 'running' && state.total ? Math.min(100, Math.round((state.runners / state.total) * 100)) : null;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!running) void run();
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700" htmlFor={`${id}-from`}>
          From
          <input
            id={`${id}-from`}
            type="date"
            required
            className={inputClass}
            value={from}
            max={to}
            onChange={(e) => setFrom(e.target.value)}
            disabled={running}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700" htmlFor={`${id}-to`}>
          To
          <input id={`${id}-to`} type="date" required className={inputClass} value={to} min={from} onChange={(e) => setTo(e.target.value)} disabled={running} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700" htmlFor={`${id}-type`}>
          Runner type
          <select id={`${id}-type`} className={inputClass} value={type} onChange={(e) => setType(e.target.value)} disabled={running}>
            {TYPES.filter((t) => !groupId || t.value !== 'instance_type').map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary" aria-disabled={running || undefined}>
            <Download aria-hidden className="size-4" />
            {running ? 'Exporting…' : 'Export as CSV'}
          </Button>
          {running && (
            <Button type="button" variant="secondary" onClick={() => abort.current?.abort()}>
              Cancel
            </Button>
          )}
        </div>
      </div>
      <p className="text-xs text-slate-600">
        One row per runner and project: jobs that finished in the period (UTC days, both included), failures, total and median duration and queued time, in
        minutes.
      </p>
      {state.kind === 'running' && (
        <div className="flex flex-col gap-1">
          <div
            role="progressbar"
            aria-label="Export progress"
            aria-valuemin={0}
            aria-valuemax={state.total ?? undefined}
            aria-valuenow={state.total ? state.runners : undefined}
            className="h-2 w-full max-w-md overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent ?? 5}%` }} />
          </div>
          <p className="text-xs text-slate-600" aria-live="polite">
            {state.total !== null
              ? `${state.runners.toLocaleString('en-US')} of ${state.total.toLocaleString('en-US')} runners, ${state.rows.toLocaleString('en-US')} rows`
              : 'Starting…'}
          </p>
        </div>
      )}
      {state.kind === 'failed' && <InlineError>{errorText(state.error)}</InlineError>}
    </form>
  );
}

/** The group runners page's "Export usage" (Owners): the same form in a dialog. */
export function UsageExportButton({ groupId }: { groupId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Download aria-hidden className="size-4" />
        Export usage
      </Button>
      <Dialog open={open} title="Export runner usage" onClose={() => setOpen(false)} size="wide">
        <UsageExport groupId={groupId} />
      </Dialog>
    </>
  );
}
