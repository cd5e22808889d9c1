// The runner constants the application settings validate with. They live here, below lib/runners and
// lib/runner-cleanup (which read the settings), so that lib/settings imports no domain above it.

/** GitLab's runner types (Ci::Runner.runner_types), in GitLab's order. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;

/** GitLab calls a runner stale after 7 days without contact (Ci::Runner::STALE_TIMEOUT). */
export const STALE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

/** A stale-runner cleanup may not reach runners that are not stale yet. */
export const MIN_STALE_DAYS = Math.round(STALE_TIMEOUT_MS / 86_400_000);
export const MAX_STALE_DAYS = 3650;
