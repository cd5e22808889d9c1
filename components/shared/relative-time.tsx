'use client';
// "3 minutes ago" that hydrates without a mismatch: the server's HTML and the browser's hydration both count
// from the moment the server rendered the page (handed down by the dashboard layout); afterwards the browser
// counts from its own clock, a tick every 15 s. Counting from "now" in each place made the server's text and
// the hydrating browser's differ whenever a unit boundary fell between the two (a server-rendered list).
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { formatDateTime, timeAgo } from './format';

const TICK_MS = 15_000;

const RenderedAt = createContext<number | null>(null);

export function RenderedAtProvider({ at, children }: { at: number; children: ReactNode }) {
  return <RenderedAt.Provider value={at}>{children}</RenderedAt.Provider>;
}

function subscribe(onTick: () => void) {
  const timer = setInterval(onTick, TICK_MS);
  return () => clearInterval(timer);
}

// Rounded to the tick, so consecutive reads agree (useSyncExternalStore requires it).
const clientNow = () => Math.floor(Date.now() / TICK_MS) * TICK_MS;

/** Now, as the page shows relative times: the server's render time in its HTML and while hydrating. */
export function useNow(): number {
  const renderedAt = useContext(RenderedAt);
  return useSyncExternalStore(subscribe, clientNow, () => renderedAt ?? clientNow());
}

/** `<time>` with "3 minutes ago" and the exact time in its title. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={formatDateTime(iso) ?? undefined}>
      {timeAgo(iso, now)}
    </time>
  );
}
