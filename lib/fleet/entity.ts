// The fleet overview's JSON (Runway extension): snake_case as GitLab's API, durations in seconds.
import type { RunnerWork } from './queries';

export function runnerWork(r: RunnerWork) {
  return {
    runner: { id: r.id, description: r.description, runner_type: r.runner_type, status: r.status },
    jobs: r.jobs,
    queued_duration: { mean: r.mean, median: r.q?.[0] ?? null, p90: r.q?.[1] ?? null, p99: r.q?.[2] ?? null },
  };
}
