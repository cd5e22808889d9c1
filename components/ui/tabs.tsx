'use client';
// A row of role="tab" buttons following the WAI-ARIA tabs pattern (automatic activation): one Tab stop (the
// selected tab; the others carry tabIndex -1), Left/Right move to the previous/next tab, wrapping, Home/End to
// the first/last, and moving selects. Every tablist of the dashboard is this one element.
import type { KeyboardEvent, ReactNode } from 'react';

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => (i === last ? 0 : i + 1),
  ArrowLeft: (i, last) => (i === 0 ? last : i - 1),
  Home: () => 0,
  End: (_i, last) => last,
};

function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
  const move = MOVES[e.key];
  if (!move || e.altKey || e.ctrlKey || e.metaKey) return;
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')].filter((t) => t.getAttribute('aria-disabled') !== 'true');
  const index = tabs.findIndex((t) => t === document.activeElement);
  if (index < 0) return;
  e.preventDefault();
  const next = tabs[move(index, tabs.length - 1)];
  next.focus();
  next.click();
}

export function TabList({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="tablist" aria-label={label} className={className} onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}

/** A tab's ARIA state and its place in the Tab order (only the selected tab is a Tab stop). */
export const tabProps = (selected: boolean) => ({ role: 'tab' as const, 'aria-selected': selected, tabIndex: selected ? 0 : -1 });
