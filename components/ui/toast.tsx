'use client';
// Completed actions are confirmed with a toast (GitLab's toast after deleting a runner, saving settings...).
// One Toaster per dashboard; components call `toast` from here so the library stays swappable.
// The library loads with the first toast (nothing completes before a page has shown), which keeps it off
// every page's first-load JavaScript; `toast` takes sonner's arguments and forwards them once the Toaster
// has mounted, so no toast is shown before its Toaster listens. React's `lazy` rather than `next/dynamic`:
// the Toaster only ever renders in the browser, and next/dynamic's loader brings ~1.3 kB gzip of its own.
import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { ExternalToast, ToasterProps, toast as sonnerToast } from 'sonner';

let wanted = false;
const listeners = new Set<() => void>();
let ready: (t: typeof sonnerToast) => void;
const mounted = new Promise<typeof sonnerToast>((resolve) => (ready = resolve));

const LazyToaster = lazy(() =>
  import('sonner').then(({ Toaster: SonnerToaster, toast: t }) => {
    function Loaded(props: ToasterProps) {
      // Runs after the Toaster's own effects, so it is subscribed by then.
      useEffect(() => ready(t), []);
      return <SonnerToaster {...props} />;
    }
    return { default: Loaded };
  }),
);

type Kind = 'success' | 'error' | 'info' | 'warning';

const show =
  (kind?: Kind) =>
  (message: string | ReactNode, data?: ExternalToast): void => {
    if (!wanted) {
      wanted = true;
      listeners.forEach((l) => l());
    }
    void mounted.then((t) => (kind ? t[kind] : t)(message, data));
  };

export const toast = Object.assign(show(), { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') });

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function Toaster() {
  const active = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  // Its own boundary: while sonner loads, nothing above it may fall back to a loading state.
  return active ? (
    <Suspense fallback={null}>
      <LazyToaster position="bottom-left" closeButton richColors={false} toastOptions={{ className: 'text-sm' }} />
    </Suspense>
  ) : null;
}
