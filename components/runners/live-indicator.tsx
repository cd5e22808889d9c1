// A small "Live" mark beside a runner page's title: whether the page is receiving runner changes. A dot
// and a word (colour is never the only cue); the title explains, for pointer and screen reader alike.
import { cn } from '../ui/cn';
import type { RunnerEventsState } from './use-runner-events';

const LABELS: Record<RunnerEventsState, { text: string; hint: string; dot: string }> = {
  connecting: { text: 'Connecting', hint: 'Connecting to live updates', dot: 'bg-slate-400' },
  live: { text: 'Live', hint: 'This page updates by itself when runners change', dot: 'bg-emerald-500' },
  reconnecting: { text: 'Reconnecting', hint: 'Live updates were interrupted; reconnecting', dot: 'bg-amber-500' },
};

export function LiveIndicator({ state }: { state: RunnerEventsState }) {
  const l = LABELS[state];
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs font-medium text-slate-600"
      title={l.hint}
      aria-label={l.hint}
      role="img"
      data-testid="runner-live-indicator"
      data-state={state}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', l.dot)} />
      <span aria-hidden="true">{l.text}</span>
    </span>
  );
}
