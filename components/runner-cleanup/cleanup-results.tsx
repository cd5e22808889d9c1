'use client';
// The per-runner results of a cleanup run: what happened to each runner it matched, and why.
import Link from 'next/link';
import { Badge, type BadgeTone } from '../ui/badge';
import { muted } from '../ui/muted';
import { formatDateTime } from '../shared/format';
import { RunnerTypeBadge } from '../runners/runner-badges';
import { timeAgo } from '../shared/format';
import type { CleanupOutcome, CleanupResult } from '@/lib/client/runner-cleanup';

const OUTCOMES: Record<CleanupOutcome, { label: string; tone: BadgeTone }> = {
  deleted: { label: 'Deleted', tone: 'success' },
  would_delete: { label: 'Would delete', tone: 'info' },
  skipped: { label: 'Skipped', tone: 'warning' },
  failed: { label: 'Failed', tone: 'danger' },
};

export function CleanupResults({ results, label }: { results: CleanupResult[]; label: string }) {
  if (!results.length) return <p className="px-1 py-2 text-sm text-slate-600">No runner matched the rule.</p>;
  return (
    // Focusable, so keyboard users can scroll a long or (at 390 px) wide list.
    <div
      tabIndex={0}
      role="region"
      aria-label={`${label}, scrollable`}
      className="relative max-h-96 overflow-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="sticky top-0 bg-slate-50">
          <tr>
            {['Runner', 'Type', 'Last contact', 'Result'].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {results.map((r) => {
            const outcome = OUTCOMES[r.result] ?? { label: r.result, tone: 'neutral' as const };
            return (
              <tr key={r.runner_id}>
                <td className="px-3 py-2">
                  <div className="flex flex-col">
                    {r.result === 'deleted' ? (
                      <span className="font-medium text-slate-900">#{r.runner_id}</span>
                    ) : (
                      <Link href={`/admin/runners/${r.runner_id}`} className="font-medium text-indigo-700 hover:underline">
                        #{r.runner_id}
                      </Link>
                    )}
                    <span className="max-w-56 truncate text-slate-600">{r.description || muted('No description')}</span>
                  </div>
                </td>
                <td className="px-3 py-2">
                  <RunnerTypeBadge type={r.runner_type} />
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                  {r.contacted_at ? (
                    <time dateTime={r.contacted_at} title={formatDateTime(r.contacted_at) ?? undefined}>
                      {timeAgo(r.contacted_at)}
                    </time>
                  ) : (
                    'Never'
                  )}
                </td>
                <td className="px-3 py-2">
                  <div className="flex flex-col items-start gap-0.5">
                    <Badge tone={outcome.tone}>{outcome.label}</Badge>
                    {r.message && <span className="text-xs text-slate-600">{r.message}</span>}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
