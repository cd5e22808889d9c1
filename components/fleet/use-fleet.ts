'use client';
// The fleet overview's reads: one query per chart, so a slow or failing part shows its own state.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import type { RunnerUpgradeStatus } from '@/lib/client/types';

export const STATUS_KEYS = ['online', 'offline', 'stale', 'never_contacted', 'paused'] as const;
export type FleetStatusKey = (typeof STATUS_KEYS)[number];

export type FleetStatus = Record<FleetStatusKey | 'total', number> & { counted_at: string };
export type FleetStatusDay = { date: string } & Record<FleetStatusKey | 'total', number | null>;

export interface FleetVersion {
  version: string;
  managers: number;
  runners: number;
  newest: boolean;
  outdated: boolean;
  upgrade_status: RunnerUpgradeStatus | null;
}

/** The upgrade statuses the versions panel groups by, most urgent first; `not_processed` while a version waits for its status. */
export const UPGRADE_GROUPS = ['recommended', 'available', 'not_available', 'invalid', 'not_processed'] as const;
export type UpgradeGroup = (typeof UPGRADE_GROUPS)[number];

export interface FleetVersions {
  newest_version: string | null;
  versions_count: number;
  managers: number;
  runners: number;
  outdated_managers: number;
  outdated_runners: number;
  upgrade_statuses: Record<UpgradeGroup, { versions: number; managers: number; runners: number }>;
  releases: {
    fetched_at: string;
    source: string;
    versions_count: number;
    newest_version: string | null;
    gitlab_version: string;
    refresh_enabled: boolean;
    refresh_attempted_at: string | null;
    refresh_error: string | null;
  };
  versions: FleetVersion[];
}

export interface QueuedDuration {
  median: number | null;
  p90: number | null;
  p99: number | null;
}

export interface RunnerWork {
  runner: { id: number; description: string | null; runner_type: string; status: string };
  jobs: number;
  queued_duration: QueuedDuration & { mean: number | null };
}

export interface FleetJobs {
  days: number;
  jobs: number;
  queued_duration: QueuedDuration;
  per_day: Array<{ date: string; jobs: number; queued_duration: QueuedDuration }>;
  busiest_runners: RunnerWork[];
  longest_queues: RunnerWork[];
}

export const HISTORY_DAYS = 30;
export const WORK_DAYS = 7;

function useFleetPart<T>(name: string, days?: number) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.fleet.part(name, days),
    queryFn: () => api.get<T>(`/runners/fleet/${name}`, days ? { days } : undefined),
  });
}

export const useFleetStatus = () => useFleetPart<FleetStatus>('status');
export const useFleetHistory = () => useFleetPart<FleetStatusDay[]>('status_history', HISTORY_DAYS);
export const useFleetVersions = () => useFleetPart<FleetVersions>('versions');
export const useFleetJobs = () => useFleetPart<FleetJobs>('jobs', WORK_DAYS);
