'use client';
// The fleet overview's parts below the status counts: status history, versions in use, and work (jobs per
// day, queued duration, busiest runners, longest queues). Charts come from a separate bundle.
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { Badge } from '../ui/badge';
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
  type RunnerWork,
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

const versionHref = (version: string) => `/admin/runners?version_prefix=${encodeURIComponent(version)}`;
/** The chart shows the most common versions; the table lists every one. */
const CHART_VERSIONS = 12;

export function Versions() {
  const versions = useFleetVersions();
  const v = versions.data;
  const columns: Column<FleetVersion>[] = [
    {
      header: 'Version',
      cell: (r) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          <span className="font-mono">{r.version}</span>
          {r.newest && <Badge tone="success">Newest</Badge>}
          {r.outdated && <Badge tone="warning">Outdated</Badge>}
        </span>
      ),
    },
    { header: 'Runner managers', numeric: true, cell: (r) => formatCount(r.managers) },
    { header: 'Runners', numeric: true, cell: (r) => formatCount(r.runners) },
    {
      header: 'Runner list',
      cell: (r) => (
        <Link href={versionHref(r.version)} className={link} aria-label={`View runners on version ${r.version}`}>
          View runners
        </Link>
      ),
    },
  ];
  const charted = v ? [...v.versions].sort((a, b) => b.managers - a.managers).slice(0, CHART_VERSIONS) : [];
  return (
    <Panel
      title="Runner versions"
      description="Runner managers by the version they last reported. Outdated: more than one minor release behind the newest version seen."
    >
      <PartState query={versions} label="the runner versions" />
      {v && v.versions.length === 0 && <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-300">No runner has reported a version yet.</p>}
      {v && v.versions.length > 0 && (
        <>
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
            <Figure term="Newest version seen" value={<span className="font-mono">{v.newest_version ?? '–'}</span>} />
            <Figure term="Versions in use" value={formatCount(v.versions_count)} />
            <Figure
              term="Runners on outdated versions"
              value={
                <span className={v.outdated_runners ? 'text-amber-800 dark:text-amber-300' : undefined}>
                  {formatCount(v.outdated_runners)} <span className="text-sm font-normal text-slate-600 dark:text-slate-300">of {formatCount(v.runners)}</span>
                </span>
              }
            />
          </dl>
          <ChartFigure
            label={`Runner managers by version, the ${Math.min(CHART_VERSIONS, charted.length)} most used`}
            height={charted.length > 6 ? 'h-80' : 'h-48'}
            chart={<VersionsChart versions={charted} />}
            table={null}
          />
          <DataTable caption="Runner managers by version" columns={columns} rows={v.versions} rowKey={(r) => r.version} />
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
