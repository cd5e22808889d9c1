'use client';
// The banner over the admin runner pages while fleet alerts fire: how many, the newest in words, and a link
// to the alerts page. Read every minute (the worker evaluates the rules in the background); it says nothing
// while loading or when the read fails, so it never stands in the way of the page under it.
import Link from 'next/link';
import { TriangleAlert } from 'lucide-react';
import { firingSummary } from '@/lib/client/fleet-alerts';
import { useFiringAlerts } from './use-fleet-alerts';

export const ALERTS_PATH = '/admin/runners/alerts';

/** The link opens the alert history on its Firing tab. */
export const FIRING_HREF = `${ALERTS_PATH}?state=firing#alert-history`;

export function FiringAlertsBanner() {
  const firing = useFiringAlerts();
  const data = firing.data;
  const total = data?.total ?? data?.items.length ?? 0;
  if (!data || total === 0) return null;
  return (
    <div
      role="region"
      aria-label="Firing fleet alerts"
      className="flex items-start gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
      data-testid="fleet-alerts-banner"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-red-700" />
      <p className="min-w-0 flex-1 break-words">
        <span className="font-semibold">{firingSummary(total, data.items[0])}</span>
      </p>
      <Link href={FIRING_HREF} prefetch={false} className="shrink-0 font-medium text-red-800 underline hover:text-red-950">
        View alerts
      </Link>
    </div>
  );
}
