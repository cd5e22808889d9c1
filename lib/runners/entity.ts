// Runners as GitLab 18.x returns them, keys in GitLab's order: Runner (§4.1), RunnerDetails (§4.2) and
// RunnerManager (§4.5). Relations come batch-loaded (queries.ts); these functions only shape JSON.
// `upgrade_status` (last in RunnerDetails and RunnerManager, and in a list's `_runway`) is a Runway extension:
// GitLab serves it through GraphQL only (CiRunner.upgradeStatus, CiRunnerManager.upgradeStatus), lower-cased here.
import type { RunnerManager } from '../db/generated/client';
import { userBasic } from '../users/entity';
import type { CreatorRow, RunnerListDetailsRow, RunnerRow, SummaryRelations } from './queries';
import { isOnline, managerStatus, runnerStatus } from './status';
import type { UpgradeStatus } from './upgrade-status';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The Runner list entity. `created_by` is left out (not null) when the runner has no creator. */
export function runnerSummary(r: RunnerRow, rel: SummaryRelations, now = new Date()) {
  const creator: CreatorRow | undefined = r.creatorId !== null ? rel.creators.get(r.creatorId) : undefined;
  return {
    id: r.id,
    description: r.description,
    ip_address: null,
    active: r.active,
    paused: !r.active,
    is_shared: r.runnerType === 'instance_type',
    runner_type: r.runnerType,
    name: r.name,
    online: isOnline(r, now),
    ...(creator ? { created_by: userBasic(creator) } : {}),
    created_at: iso(r.createdAt),
    status: runnerStatus(r, now),
    job_execution_status: rel.executing.has(r.id) ? 'active' : 'idle',
  };
}

export interface DetailsExtras {
  tags: string[];
  latestManager: { version: string | null; revision: string | null; platform: string | null; architecture: string | null } | null;
  /** Shown only to users who may update the runner (18.x); null otherwise. */
  showMaintenanceNote: boolean;
  /** Already shaped BasicProjectDetails; undefined leaves the key out (include_projects=false). */
  projects?: unknown[];
  groups: unknown[];
  /** The most urgent of its managers' statuses; null when none is known. */
  upgradeStatus: UpgradeStatus | null;
}

export function runnerDetails(r: RunnerRow, rel: SummaryRelations, x: DetailsExtras, now = new Date()) {
  const m = x.latestManager;
  return Object.assign(runnerSummary(r, rel, now), {
    tag_list: x.tags,
    run_untagged: r.runUntagged,
    locked: r.locked,
    maximum_timeout: r.maximumTimeout,
    access_level: r.accessLevel,
    version: m?.version ?? null,
    revision: m?.revision ?? null,
    platform: m?.platform ?? null,
    architecture: m?.architecture ?? null,
    contacted_at: iso(r.contactedAt),
    maintenance_note: x.showMaintenanceNote ? r.maintenanceNote : null,
    ...(x.projects !== undefined ? { projects: x.projects } : {}),
    groups: x.groups,
    upgrade_status: x.upgradeStatus,
  });
}

export function runnerManagerEntity(m: RunnerManager, executing: boolean, upgradeStatus: UpgradeStatus | null, now = new Date()) {
  return {
    id: m.id,
    system_id: m.systemXid,
    version: m.version,
    revision: m.revision,
    platform: m.platform,
    architecture: m.architecture,
    created_at: iso(m.createdAt),
    contacted_at: iso(m.contactedAt),
    ip_address: m.ipAddress,
    status: managerStatus(m, now),
    job_execution_status: executing ? 'active' : 'idle',
    upgrade_status: upgradeStatus,
  };
}

/**
 * `_runway` of a list entry with `with_details=true` (a Runway extension): what GitLab's runner list
 * shows from GraphQL. `job_count` counts to 1,001 (more than 1,000) like GraphQL's `jobCount`.
 */
export function runnerListDetails(d: RunnerListDetailsRow) {
  const owner = d.ownerProject
    ? { type: 'project', id: d.ownerProject.id, name: d.ownerProject.name, full_path: d.ownerProject.fullPath, full_name: d.ownerProject.nameWithNamespace }
    : d.ownerGroup
      ? { type: 'group', id: d.ownerGroup.id, name: d.ownerGroup.name, full_path: d.ownerGroup.fullPath, full_name: d.ownerGroup.name }
      : null;
  return {
    tag_list: d.tags,
    locked: d.locked,
    contacted_at: d.contactedAt ? new Date(d.contactedAt).toISOString() : null,
    version: d.manager?.version ?? null,
    ip_address: d.manager?.ipAddress ?? null,
    managers_count: d.managersCount,
    job_count: d.jobCount,
    owner,
    upgrade_status: d.upgradeStatus,
  };
}
