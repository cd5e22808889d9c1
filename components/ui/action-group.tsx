'use client';
// A row's actions, as GitLab's list rows draw them (the runner list's actions cell): a joined group of icon
// buttons, each named for screen readers and shown by name in a tooltip on hover and keyboard focus, the
// destructive ones in red. Links (Edit) and buttons (Pause, Delete) look the same.
import Link from 'next/link';
import type { LucideIcon } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { cn } from './cn';

const FOCUSABLE = 'a[href], button';

/**
 * `label`: the group's name ("Actions for runner #7"). When the focused action leaves the group (Unlock,
 * once done, is no longer offered), focus moves to the action now in its place, or the last one, before
 * the focus keeper would send it to the table: the keyboard stays in the row.
 */
export function ActionGroup({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const focused = useRef<{ el: Element; index: number } | null>(null);
  useLayoutEffect(() => {
    const last = focused.current;
    const group = ref.current;
    if (!last || !group || last.el.isConnected) return;
    focused.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const actions = [...group.querySelectorAll<HTMLElement>(FOCUSABLE)];
    actions[Math.min(last.index, actions.length - 1)]?.focus();
  });
  return (
    <div
      ref={ref}
      role="group"
      aria-label={label}
      className={cn('inline-flex shadow-sm', className)}
      onFocus={(e) => {
        const actions = [...e.currentTarget.querySelectorAll(FOCUSABLE)];
        const index = actions.indexOf(e.target);
        focused.current = index === -1 ? null : { el: e.target, index };
      }}
    >
      {children}
    </div>
  );
}

type Target = { href: string; onClick?: never; disabled?: never } | { href?: never; onClick: () => void; disabled?: boolean };

/**
 * One action of an ActionGroup. `label` is its accessible name (it may name the row: "Pause runner #7");
 * `tooltip` the word or two shown on hover and focus ("Pause from accepting jobs"); `danger` for actions
 * that delete.
 */
export function ActionButton({
  label,
  tooltip,
  icon: Icon,
  danger,
  ...target
}: { label: string; tooltip: string; icon: LucideIcon; danger?: boolean } & Target) {
  // One text colour or the other, never both: cn() joins classes, so a later one would not override.
  const cls = cn(
    'group relative -ml-px inline-flex size-8 items-center justify-center bg-white ring-1 ring-inset ring-slate-300 first:ml-0 first:rounded-l-md last:rounded-r-md',
    'hover:z-10 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 aria-disabled:cursor-not-allowed aria-disabled:text-slate-300',
    danger ? 'text-red-700 hover:bg-red-50 hover:text-red-800' : 'text-slate-700 hover:bg-slate-50',
  );
  const content = (
    <>
      <Icon aria-hidden className="size-4" />
      <span
        role="tooltip"
        className="pointer-events-none absolute bottom-full right-0 z-20 mb-1.5 hidden whitespace-nowrap rounded bg-slate-900 px-2 py-1 text-xs font-medium text-white shadow group-hover:block group-focus-visible:block"
      >
        {tooltip}
      </span>
    </>
  );
  if (target.href !== undefined)
    return (
      <Link href={target.href} aria-label={label} className={cls}>
        {content}
      </Link>
    );
  return (
    // aria-disabled, not disabled, while the request runs: the focused button stays focused (see ui/button).
    <button type="button" aria-label={label} className={cls} onClick={() => !target.disabled && target.onClick()} aria-disabled={target.disabled || undefined}>
      {content}
    </button>
  );
}
