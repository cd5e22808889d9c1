'use client';
// The fleet overview's parts below the status counts: status history, versions in use, and work (jobs per
// day, queued duration, busiest runners, longest queues). Charts come from a separate bundle.
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../ui/badge';
import { formatDate, formatDateTime } from '../shared/format';
import { formatCount, formatDay, formatDuration } from '@/lib/client/fleet-format';
import { ChartFigure, ChartLoading, DataTable, Panel, PartState, type Column } from './fleet-figure';
import { STATUS_LABELS } from './status-labels';
import {
  HISTORY_DAYS,
  STATUS_KEYS,
  useFleetHistory,
  useFleetJobs,
  useFleetVersions,
  WORK_DAYS,
  type FleetStatus,
  type FleetStatusDay,
  type FleetVersion,
  type FleetVersions,
  type RunnerWork,
  UPGRADE_GROUPS,
  type UpgradeGroup,
} from './use-fleet';

// The chart library is its own chunk, fetched by this page only (Next.js wants the options written out).
const StatusHistoryChart = dynamic(() => import('./fleet-charts').then((m) => m.StatusHistoryChart), { ssr: false, loading: ChartLoading });
const VersionsChart = dynamic(() => import('./fleet-charts').then((m) => m.VersionsChart), { ssr: false, loading: ChartLoading });
const JobsPerDayChart = dynamic(() => import('./fleet-charts').then((m) => m.JobsPerDayChart), { ssr: false, loading: ChartLoading });
const QueuedDurationChart = dynamic(() => import('./fleet-charts').then((m) => m.QueuedDurationChart), { ssr: false, loading: ChartLoading });

const link = 'font-medium text-indigo-700 hover:underline dark:text-indigo-300';

/** Today's bar shows the counts of the moment (the cards above), not the last snapshot, which may be minutes old. */
export function StatusHistory({ now }: { now: FleetStatus }) {
  const history = useFleetHistory();
  const today = now.counted_at.slice(0, 10);
  const days = (history.data ?? []).map((d) => (d.date === today ? { ...d, ...Object.fromEntries(STATUS_KEYS.map((k) => [k, now[k]])), total: now.total } : d));
  const columns: Column<FleetStatusDay>[] = [
    { header: 'Day', cell: (d) => formatDay(d.date) },
    ...STATUS_KEYS.map((key) => ({
      header: STATUS_LABELS[key],
      numeric: true,
      cell: (d: FleetStatusDay) => (d.total === null ? 'No snapshot' : formatCount(d[key])),
    })),
    { header: 'Total', numeric: true, cell: (d) => formatCount(d.total) },
  ];
  return (
    <Panel title={`Runners by status, last ${HISTORY_DAYS} days`} description="One snapshot a day (UTC), kept by the background worker.">
      <PartState query={history} label="the status history" />
      {history.data && (
        <ChartFigure
          label={`Runners by status per day, last ${HISTORY_DAYS} days`}
          chart={<StatusHistoryChart days={days} />}
          table={<DataTable hidden caption={`Runners by status per day, last ${HISTORY_DAYS} days`} columns={columns} rows={days} rowKey={(d) => d.date} />}
        />
      )}
    </Panel>
  );
}

// The runner list's own form of the filter (lib/client/runner-filters.ts), so the list need not rewrite the address.
const versionHref = (version: string) => `/admin/runners?${new URLSearchParams({ 'version_prefix[]': version })}`;
const upgradeHref = (status: UpgradeGroup) => `/admin/runners?upgrade_status[]=${status.toUpperCase()}`;
/** The chart shows the most common versions; the table lists every one. */
const CHART_VERSIONS = 12;
/** A release list older than this is called out: runners released since then are not known to it. */
const STALE_LIST_DAYS = 90;

// GitLab's words for the statuses (its runner badges and Upgrade status token), with what each one means.
const UPGRADE_LABELS: Record<UpgradeGroup, { label: string; tone: BadgeTone; help: string }> = {
  recommended: { label: 'Upgrade recommended', tone: 'warning', help: 'A newer patch of their minor, or outside the backport window' },
  available: { label: 'Upgrade available', tone: 'info', help: "A newer release in GitLab's own minor" },
  not_available: { label: 'Up to date', tone: 'success', help: 'Nothing newer to upgrade to' },
  invalid: { label: 'Invalid version', tone: 'neutral', help: 'The reported version does not parse' },
  not_processed: { label: 'Not checked yet', tone: 'neutral', help: 'Checked within a minute' },
};

function ReleaseListAge({ releases }: { releases: FleetVersions['releases'] }) {
  // The page's moment, read once: the age in days does not change while the page is open.
  const [now] = useState(() => Date.now());
  const days = Math.floor((now - new Date(releases.fetched_at).getTime()) / 86_400_000);
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-700 dark:text-slate-300" data-testid="release-list">
      <p>
        Compared with the gitlab-runner releases of{' '}
        <time dateTime={releases.fetched_at} title={formatDateTime(releases.fetched_at) ?? undefined} className="font-medium">
          {formatDate(releases.fetched_at)}
        </time>{' '}
        ({days < 1 ? 'today' : `${formatCount(days)} ${days === 1 ? 'day' : 'days'} old`}): {formatCount(releases.versions_count)} releases up to{' '}
        <span className="font-mono">{releases.newest_version ?? '–'}</span>, against GitLab {releases.gitlab_version}, the version this instance answers as.
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400 [overflow-wrap:anywhere]">Source: {releases.source}</p>
      {releases.refresh_error && (
        <p role="status" className="text-xs text-red-700 dark:text-red-300">
          The last daily refresh failed: {releases.refresh_error}
        </p>
      )}
      {!releases.refresh_enabled && days > STALE_LIST_DAYS && (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          Runners released since are unknown to it: refresh it with <code>runway runner-releases --fetch</code> or <code>--file</code>, or every day with the
          setting <code>update_runner_versions_enabled</code>.
        </p>
      )}
    </div>
  );
}

const plural = (n: number, word: string) => `${formatCount(n)} ${n === 1 ? word : `${word}s`}`;

function UpgradeCounts({ counts }: { counts: FleetVersions['upgrade_statuses'] }) {
  const shown = UPGRADE_GROUPS.filter((g) => g !== 'not_processed' || counts[g].versions > 0);
  return (
    <ul aria-label="Runners by upgrade status" className="grid grid-cols-2 gap-2 text-sm lg:grid-cols-4">
      {shown.map((g) => (
        <li key={g} className="flex flex-col gap-1 rounded-md bg-slate-50 px-3 py-2 dark:bg-slate-800" data-testid={`upgrade-${g}`}>
          <span>
            <Badge tone={UPGRADE_LABELS[g].tone}>{UPGRADE_LABELS[g].label}</Badge>
          </span>
          <span className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            {formatCount(counts[g].runners)}{' '}
            <span className="text-sm font-normal text-slate-600 dark:text-slate-300">{counts[g].runners === 1 ? 'runner' : 'runners'}</span>
          </span>
          <span className="text-xs text-slate-600 dark:text-slate-300">
            {plural(counts[g].managers, 'manager')} on {plural(counts[g].versions, 'version')}. {UPGRADE_LABELS[g].help}.
          </span>
          {g !== 'not_processed' && counts[g].runners > 0 && (
            <Link href={upgradeHref(g)} className={`${link} text-xs`} aria-label={`View runners: ${UPGRADE_LABELS[g].label.toLowerCase()}`}>
              View runners
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every version, grouped by upgrade status (most urgent first), newest first in each group. */
function VersionsTable({ versions }: { versions: FleetVersion[] }) {
  const groups = UPGRADE_GROUPS.map((g) => ({ g, rows: versions.filter((v) => (v.upgrade_status ?? 'not_processed') === g) })).filter((x) => x.rows.length);
  const th = 'px-2 py-2 font-medium';
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Runner managers by version</caption>
        <thead className="border-b border-slate-200 text-xs font-medium text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className={th}>
              Version
            </th>
            <th scope="col" className={`${th} text-right`}>
              Runner managers
            </th>
            <th scope="col" className={`${th} text-right`}>
              Runners
            </th>
            <th scope="col" className={th}>
              Runner list
            </th>
          </tr>
        </thead>
        {groups.map(({ g, rows }) => (
          <tbody key={g} className="divide-y divide-slate-100 text-slate-800 dark:divide-slate-800 dark:text-slate-200" data-upgrade-group={g}>
            <tr className="bg-slate-50 dark:bg-slate-800/60">
              <th scope="rowgroup" colSpan={4} className="px-2 py-1.5 text-left text-xs font-medium text-slate-700 dark:text-slate-200">
                <span className="inline-flex flex-wrap items-center gap-2">
                  <Badge tone={UPGRADE_LABELS[g].tone}>{UPGRADE_LABELS[g].label}</Badge>
                  <span>{plural(rows.length, 'version')}</span>
                </span>
              </th>
            </tr>
            {rows.map((r) => (
              <tr key={r.version}>
                <td className="px-2 py-2">
                  <span className="inline-flex flex-wrap items-center gap-2">
                    <span className="font-mono [overflow-wrap:anywhere]">{r.version}</span>
                    {r.newest && <Badge tone="success">Newest</Badge>}
                  </span>
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{formatCount(r.managers)}</td>
                <td className="px-2 py-2 text-right tabular-nums">{formatCount(r.runners)}</td>
                <td className="px-2 py-2">
                  <Link href={versionHref(r.version)} className={link} aria-label={`View runners on version ${r.version}`}>
                    View runners
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

export function Versions() {
  const versions = useFleetVersions();
  const v = versions.data;
  const charted = v ? [...v.versions].sort((a, b) => b.managers - a.managers).slice(0, CHART_VERSIONS) : [];
  return (
    <Panel
      title="Runner versions"
      description="Runner managers by the version they last reported, grouped by GitLab's upgrade status. A runner counts under each status its managers have."
    >
      <PartState query={versions} label="the runner versions" />
      {v && <ReleaseListAge releases={v.releases} />}
      {v && v.versions.length === 0 && <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-300">No runner has reported a version yet.</p>}
      {v && v.versions.length > 0 && (
        <>
          <UpgradeCounts counts={v.upgrade_statuses} />
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <Figure term="Newest version seen" value={<span className="font-mono">{v.newest_version ?? '–'}</span>} />
            <Figure term="Versions in use" value={formatCount(v.versions_count)} />
          </dl>
          <ChartFigure
            label={`Runner managers by version, the ${Math.min(CHART_VERSIONS, charted.length)} most used`}
            height={charted.length > 6 ? 'h-80' : 'h-48'}
            chart={<VersionsChart versions={charted} />}
            table={null}
          />
          <VersionsTable versions={v.versions} />
          {v.versions_count > v.versions.length && (
            <p className="text-xs text-slate-600 dark:text-slate-300">
              The {v.versions.length} newest of {formatCount(v.versions_count)} versions are listed.
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

function Figure({ term, value }: { term: string; value: React.ReactNode }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2 dark:bg-slate-800">
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{term}</dt>
      <dd className="text-lg font-semibold text-slate-900 dark:text-slate-100">{value}</dd>
    </div>
  );
}

const runnerName = (w: RunnerWork) => w.runner.description || `Runner #${w.runner.id}`;

function RunnerTable({ caption, rows }: { caption: string; rows: RunnerWork[] }) {
  const columns: Column<RunnerWork>[] = [
    {
      header: 'Runner',
      cell: (w) => (
        <span className="flex flex-col">
          <Link href={`/admin/runners/${w.runner.id}`} className={link}>
            {runnerName(w)}
          </Link>
          <span className="text-xs text-slate-600 dark:text-slate-300">#{w.runner.id}</span>
        </span>
      ),
    },
    { header: 'Jobs', numeric: true, cell: (w) => formatCount(w.jobs) },
    { header: 'Mean queued', numeric: true, cell: (w) => formatDuration(w.queued_duration.mean) },
    { header: 'Median queued', numeric: true, cell: (w) => formatDuration(w.queued_duration.median) },
    { header: 'p90 queued', numeric: true, cell: (w) => formatDuration(w.queued_duration.p90) },
  ];
  if (!rows.length) return <p className="py-4 text-sm text-slate-600 dark:text-slate-300">No jobs ran in the last {WORK_DAYS} days.</p>;
  return <DataTable caption={caption} columns={columns} rows={rows} rowKey={(w) => w.runner.id} />;
}

export function Work() {
  const jobs = useFleetJobs();
  const j = jobs.data;
  const perDay = j?.per_day ?? [];
  const dayColumns: Column<(typeof perDay)[number]>[] = [
    { header: 'Day', cell: (d) => formatDay(d.date) },
    { header: 'Jobs', numeric: true, cell: (d) => formatCount(d.jobs) },
    { header: 'Median queued', numeric: true, cell: (d) => formatDuration(d.queued_duration.median) },
    { header: 'p90 queued', numeric: true, cell: (d) => formatDuration(d.queued_duration.p90) },
    { header: 'p99 queued', numeric: true, cell: (d) => formatDuration(d.queued_duration.p99) },
  ];
  const dayTable = (
    <DataTable hidden caption={`Jobs and queued duration per day, last ${WORK_DAYS} days`} columns={dayColumns} rows={perDay} rowKey={(d) => d.date} />
  );
  return (
    <>
      <Panel title={`Jobs, last ${WORK_DAYS} days`} description="Jobs created per day (UTC) and how long they waited for a runner.">
        <PartState query={jobs} label="the job statistics" />
        {j && (
          <>
            <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
              <Figure term="Jobs" value={formatCount(j.jobs)} />
              <Figure term="Median queued" value={formatDuration(j.queued_duration.median)} />
              <Figure term="p90 queued" value={formatDuration(j.queued_duration.p90)} />
              <Figure term="p99 queued" value={formatDuration(j.queued_duration.p99)} />
            </dl>
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <ChartFigure label={`Jobs per day, last ${WORK_DAYS} days`} chart={<JobsPerDayChart perDay={perDay} />} table={dayTable} />
              <ChartFigure
                label={`Queued duration per day (median, p90, p99), last ${WORK_DAYS} days`}
                chart={<QueuedDurationChart perDay={perDay} />}
                table={null}
              />
            </div>
          </>
        )}
      </Panel>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Panel title="Busiest runners" description={`Most jobs in the last ${WORK_DAYS} days.`}>
          <PartState query={jobs} label="the busiest runners" />
          {j && <RunnerTable caption="Busiest runners" rows={j.busiest_runners} />}
        </Panel>
        <Panel title="Runners with the longest queues" description={`Highest mean time their jobs waited to start, last ${WORK_DAYS} days.`}>
          <PartState query={jobs} label="the longest queues" />
          {j && <RunnerTable caption="Runners with the longest queues" rows={j.longest_queues} />}
        </Panel>
      </div>
    </>
  );
}
