// GitLab's words for the runner statuses, and where the runner list shows each one.
import type { FleetStatusKey } from './use-fleet';

export const STATUS_LABELS: Record<FleetStatusKey, string> = {
  online: 'Online',
  offline: 'Offline',
  stale: 'Stale',
  never_contacted: 'Never contacted',
  paused: 'Paused',
};

/** The admin runner list filtered to a status (paused is its own filter there). */
export const statusListHref = (key: FleetStatusKey) => (key === 'paused' ? '/admin/runners?paused=true' : `/admin/runners?status=${key}`);
