// Loading, empty and error states, so every list and panel says what is going on in the same words.
import { Inbox, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { AlertBanner } from './alert-banner';
import { Button } from './button';
import { plainReason } from '@/lib/client/error-text';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-500">
      <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" aria-hidden />
      {label}
    </span>
  );
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

/**
 * GitLab's empty state: an illustration, a title, a line saying why and what to do, and an optional action.
 * `icon`: the lucide icon at the illustration's centre (Inbox by default); `compact`: less padding, for a
 * panel inside a page rather than a whole page.
 */
export function EmptyState({
  title,
  children,
  icon = Inbox,
  action,
  compact = false,
}: {
  title: string;
  children?: ReactNode;
  icon?: LucideIcon;
  action?: ReactNode;
  compact?: boolean;
}) {
  return (
    <div className={`flex flex-col items-center gap-1 text-center ${compact ? 'py-8' : 'py-12'}`}>
      <EmptyIllustration icon={icon} />
      <p className="mt-3 text-sm font-semibold text-slate-900">{title}</p>
      {children && <div className="max-w-sm text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-3 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}

/** The illustration: the icon on a tinted disc, between two soft shapes (decorative, hidden from readers). */
export function EmptyIllustration({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <div aria-hidden className="relative grid size-20 place-items-center">
      <span className="absolute left-0 top-2 size-5 rotate-12 rounded-md bg-indigo-100" />
      <span className="absolute bottom-1 right-0 size-4 rounded-full bg-amber-100" />
      <span className="grid size-16 place-items-center rounded-full bg-gradient-to-br from-indigo-50 to-slate-100 ring-1 ring-indigo-100">
        <Icon className="size-7 text-indigo-500" strokeWidth={1.75} />
      </span>
    </div>
  );
}

export function ErrorState({ title = 'Something went wrong', error, onRetry }: { title?: string; error: unknown; onRetry?: () => void }) {
  const message = plainReason(error);
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-12 text-center">
      <div>
        <p className="text-sm font-medium text-red-700">{title}</p>
        <p className="mt-1 text-sm text-slate-600">{message}</p>
      </div>
      {onRetry && (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

/** A form's or panel's error; scrolls itself into view below the top bar (AlertBanner). */
export function InlineError({ children }: { children: ReactNode }) {
  return <AlertBanner className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{children}</AlertBanner>;
}
