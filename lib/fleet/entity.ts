// The fleet overview's JSON (Runway extension): snake_case as GitLab's API, durations in seconds.
import type { JobDay, RunnerWork, StatusCounts } from './queries';

export function runnerWork(r: RunnerWork) {
  return {
    runner: { id: r.id, description: r.description, runner_type: r.runner_type, status: r.status },
    jobs: r.jobs,
    queued_duration: { mean: r.mean, median: r.q?.[0] ?? null, p90: r.q?.[1] ?? null, p99: r.q?.[2] ?? null },
  };
}

/** GET /runners/fleet/status: the counts now, and when they were taken. */
export function fleetStatusEntity(counts: StatusCounts, now = new Date()) {
  return { ...counts, counted_at: now.toISOString() };
}

/** GET /runners/fleet/jobs: the window's totals, per day, and the two runner rankings. */
export function fleetJobsEntity(
  days: number,
  work: { days: JobDay[]; total: Omit<JobDay, 'date'> },
  top: { busiest: RunnerWork[]; longestQueues: RunnerWork[] },
) {
  return {
    days,
    jobs: work.total.jobs,
    queued_duration: work.total.queued_duration,
    per_day: work.days,
    busiest_runners: top.busiest.map(runnerWork),
    longest_queues: top.longestQueues.map(runnerWork),
  };
}
