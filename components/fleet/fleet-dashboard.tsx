'use client';
// /admin/runners/dashboard: the runner fleet at a glance (GitLab EE's "Fleet dashboard"): runners by status
// now and over 30 days, versions in use, and the last 7 days of work. Each part is its own /api/v4 read.
import Link from 'next/link';
import { buttonClass } from '../ui/button';
import { adminCrumbs, Breadcrumbs } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { EmptyState } from '../ui/states';
import { NewRunnerButton } from '../runners/new-runner-button';
import { ADMIN_SCOPE } from '@/lib/client/runner-paths';
import { formatCount } from '@/lib/client/fleet-format';
import { Panel, panelClass, PartState } from './fleet-figure';
import { StatusHistory, Versions, Work } from './fleet-sections';
import { UsageExport } from '../runner-usage/usage-export';
import { FiringAlertsBanner } from '../fleet-alerts/firing-banner';
import { STATUS_LABELS, statusListHref } from './status-labels';
import { STATUS_KEYS, useFleetStatus, type FleetStatus } from './use-fleet';

function StatusCounts({ status }: { status: FleetStatus }) {
  return (
    <ul aria-label="Runners by status now" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
      {STATUS_KEYS.map((key) => (
        <li key={key} className={`${panelClass} flex flex-col gap-1`} data-testid={`fleet-${key}`}>
          <span className="flex items-center gap-1.5 text-xs font-medium text-slate-600 dark:text-slate-300">
            <span aria-hidden className="size-2 rounded-full" style={{ background: `var(--fleet-${key})` }} />
            {STATUS_LABELS[key]}
          </span>
          <span className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{formatCount(status[key])}</span>
          <Link
            href={statusListHref(key)}
            className="text-xs font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            aria-label={`View ${STATUS_LABELS[key].toLowerCase()} runners`}
          >
            View runners
          </Link>
        </li>
      ))}
      <li className={`${panelClass} flex flex-col gap-1`} data-testid="fleet-total">
        <span className="text-xs font-medium text-slate-600 dark:text-slate-300">All runners</span>
        <span className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{formatCount(status.total)}</span>
        <Link href="/admin/runners" className="text-xs font-medium text-indigo-700 hover:underline dark:text-indigo-300" aria-label="View all runners">
          View runners
        </Link>
      </li>
    </ul>
  );
}

export function FleetDashboard() {
  const status = useFleetStatus();
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Runners', href: '/admin/runners' }, { label: 'Fleet dashboard' }])} />
      <FiringAlertsBanner />
      <PageHeader
        title="Fleet dashboard"
        description="The runners of this instance at a glance: their status today and over the last 30 days, the versions they run, and the work they did in the last 7 days."
        actions={
          <>
            <Link href="/admin/runners" className={buttonClass('secondary')}>
              View runners
            </Link>
            <Link href="/admin/runners/alerts" prefetch={false} className={buttonClass('secondary')}>
              Fleet alerts
            </Link>
            <NewRunnerButton scope={ADMIN_SCOPE} />
          </>
        }
      />
      {!status.data ? (
        <div className={panelClass}>
          <PartState query={status} label="the runner counts" />
        </div>
      ) : status.data.total === 0 ? (
        <div className={panelClass}>
          <EmptyState title="No runners yet">
            The dashboard fills in once runners are registered: their status, versions and jobs. Create an instance runner to get started.
          </EmptyState>
        </div>
      ) : (
        <>
          <StatusCounts status={status.data} />
          <StatusHistory now={status.data} />
          <Versions />
          <Work />
          <Panel
            title="Runner usage"
            description="Which projects used which runners, for how long: the jobs of a period as a CSV file, per runner and project (GitLab Ultimate's runner usage report)."
          >
            <UsageExport />
          </Panel>
        </>
      )}
    </div>
  );
}
