'use client';
// The fleet overview's plots, drawn with Recharts. This module is loaded with next/dynamic from the
// dashboard page only, so the chart library never reaches another page's bundle. The plots are hidden
// from assistive technology: each sits next to a table of the same data (fleet-figure.tsx).
// Colours come from CSS variables (app/globals.css) so the same plot reads on light and dark surfaces.
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { durationAxis, formatCount, formatDay, formatDuration } from '@/lib/client/fleet-format';
import { STATUS_KEYS, type FleetJobs, type FleetStatusDay, type FleetVersion } from './use-fleet';
import { STATUS_LABELS } from './status-labels';

const ink = 'var(--chart-ink)';
const grid = 'var(--chart-grid)';
const axis = { tick: { fill: ink, fontSize: 12 }, stroke: grid, tickLine: false } as const;
const tooltip = {
  contentStyle: { background: 'var(--chart-surface)', border: '1px solid var(--chart-grid)', borderRadius: 6, color: ink, fontSize: 12 },
  labelStyle: { color: ink, fontWeight: 600 },
  cursor: { fill: 'var(--chart-cursor)' },
} as const;
// Legend items in the series' own order (Online first), not alphabetical.
const legend = { wrapperStyle: { fontSize: 12, color: ink }, itemSorter: null } as const;

export function StatusHistoryChart({ days }: { days: FleetStatusDay[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={days} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={grid} vertical={false} />
        <XAxis dataKey="date" tickFormatter={formatDay} minTickGap={16} {...axis} />
        <YAxis tickFormatter={(v: number) => formatCount(v)} width={56} allowDecimals={false} {...axis} />
        <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatCount(Number(v))} {...tooltip} />
        <Legend {...legend} />
        {STATUS_KEYS.map((key) => (
          <Bar key={key} dataKey={key} name={STATUS_LABELS[key]} stackId="status" fill={`var(--fleet-${key})`} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

// By upgrade status, as the table beside groups them: amber recommended, indigo available, green up to date, grey otherwise.
const UPGRADE_COLOURS: Partial<Record<string, string>> = {
  recommended: 'var(--fleet-stale)',
  available: 'var(--fleet-version)',
  not_available: 'var(--fleet-online)',
};
const versionColour = (v: FleetVersion) => UPGRADE_COLOURS[v.upgrade_status ?? ''] ?? 'var(--fleet-offline)';

export function VersionsChart({ versions }: { versions: FleetVersion[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={versions} layout="vertical" accessibilityLayer={false} margin={{ top: 0, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={grid} horizontal={false} />
        <XAxis type="number" tickFormatter={(v: number) => formatCount(v)} allowDecimals={false} {...axis} />
        <YAxis type="category" dataKey="version" width={96} interval={0} {...axis} />
        <Tooltip formatter={(v) => formatCount(Number(v))} {...tooltip} />
        <Bar dataKey="managers" name="Runner managers" maxBarSize={28} isAnimationActive={false}>
          {versions.map((v) => (
            <Cell key={v.version} fill={versionColour(v)} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

export function JobsPerDayChart({ perDay }: { perDay: FleetJobs['per_day'] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={perDay} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={grid} vertical={false} />
        <XAxis dataKey="date" tickFormatter={formatDay} {...axis} />
        <YAxis tickFormatter={(v: number) => formatCount(v)} width={56} allowDecimals={false} {...axis} />
        <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatCount(Number(v))} {...tooltip} />
        <Bar dataKey="jobs" name="Jobs" fill="var(--fleet-version)" maxBarSize={48} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

const QUEUE_LINES = [
  { key: 'median', name: 'Median', colour: 'var(--fleet-online)' },
  { key: 'p90', name: 'p90', colour: 'var(--fleet-stale)' },
  { key: 'p99', name: 'p99', colour: 'var(--fleet-p99)' },
] as const;

export function QueuedDurationChart({ perDay }: { perDay: FleetJobs['per_day'] }) {
  const data = perDay.map((d) => ({ date: d.date, ...d.queued_duration }));
  const yAxis = durationAxis(data.flatMap((d) => QUEUE_LINES.map((l) => d[l.key])));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={grid} vertical={false} />
        <XAxis dataKey="date" tickFormatter={formatDay} {...axis} />
        <YAxis tickFormatter={yAxis.format} width={72} {...axis} />
        <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatDuration(Number(v))} {...tooltip} cursor={{ stroke: grid }} />
        <Legend {...legend} />
        {QUEUE_LINES.map((l) => (
          <Line key={l.key} dataKey={l.key} name={l.name} stroke={l.colour} strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
