// The fleet overview's JSON (Runway extension): snake_case as GitLab's API, durations in seconds.
import type { RunnerWork } from './queries';

export function runnerWork(r: RunnerWork) {
  return {
    runner: { id: r.id, description: r.description, runner_type: r.runner_type, status: r.status },
    jobs: r.jobs,
    queued_duration: { median: r.median, p90: r.p90, p99: r.p99 },
  };
}
