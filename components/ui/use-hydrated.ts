'use client';
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has hydrated, true after. A button whose work is a click handler
 * is disabled until then: a click that lands before hydration would otherwise do nothing, silently.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
