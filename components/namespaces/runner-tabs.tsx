'use client';
// Tabs with a count badge each (GitLab's GlTabs in the runner settings), following the WAI-ARIA tabs pattern:
// one tab stop, arrow keys / Home / End move between tabs and select them, the panel is labelled by its tab.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../ui/cn';

export interface RunnerTab<T extends string = string> {
  id: T;
  title: string;
  /** Undefined while loading or when the list does not apply: no badge. */
  count?: number;
}

export function RunnerTabs<T extends string>(props: { label: string; tabs: RunnerTab<T>[]; current: T; onSelect: (id: T) => void; children: ReactNode }) {
  const base = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = Math.max(
    0,
    props.tabs.findIndex((t) => t.id === props.current),
  );
  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>) {
    const last = props.tabs.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    props.onSelect(props.tabs[next].id);
    refs.current[next]?.focus();
  }
  return (
    <div className="flex min-w-0 flex-col">
      {/* Scrolls on its own at narrow widths, so the page itself never scrolls sideways. */}
      <div role="tablist" aria-label={props.label} className="flex gap-1 overflow-x-auto border-b border-slate-200 px-2 sm:px-4">
        {props.tabs.map((t, i) => {
          const selected = i === index;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${t.id}`}
              aria-selected={selected}
              aria-controls={`${base}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => props.onSelect(t.id)}
              onKeyDown={onKeyDown}
              className={cn(
                '-mb-px inline-flex shrink-0 items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium',
                'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
                selected ? 'border-indigo-600 text-slate-900' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
              )}
            >
              {t.title}
              {t.count !== undefined && (
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium tabular-nums text-slate-700">{t.count}</span>
              )}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${props.tabs[index]?.id}`} className="min-w-0">
        {props.children}
      </div>
    </div>
  );
}
