// A box that scrolls sideways (a wide table or code block), reached with Tab and named, so a keyboard or a
// screen reader can scroll it; the page itself never scrolls sideways.
import type { ReactNode } from 'react';
import { cn } from './cn';

export function Scroller({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn(
        'mt-4 w-fit max-w-full overflow-x-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600',
        className,
      )}
    >
      {children}
    </div>
  );
}
