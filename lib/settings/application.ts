// Instance-wide settings (the one application_settings row, id = 1): what runners depend on
// (registration-token allowance, valid registrars and token expiration intervals) and whether imports
// may reach the local network. Admin only.
import { MAX_INT4 } from '../db/ids';
import { db, type Prisma } from '../db/client';
import type { ApplicationSetting, RunnerType } from '../db/generated/client';
import { MAX_STALE_DAYS, MIN_STALE_DAYS } from './runner-constants';
import type { Actor } from '../api/authenticate';
import { forbidden, validationError } from '../api/errors';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export const VALID_RUNNER_REGISTRAR_TYPES = ['project', 'group'] as const;
export type RunnerRegistrar = (typeof VALID_RUNNER_REGISTRAR_TYPES)[number];

/** The settings row; created on first use when the bootstrap has not made it yet. */
export async function currentSettings(client: Client = db()): Promise<ApplicationSetting> {
  const found = await client.applicationSetting.findUnique({ where: { id: 1 } });
  return found ?? client.applicationSetting.upsert({ where: { id: 1 }, create: { id: 1 }, update: {} });
}

/** GitLab's allow_local_requests_from_web_hooks_and_services: imports may reach this host and the local network. */
export async function localRequestsAllowed(client: Client = db()): Promise<boolean> {
  return (await currentSettings(client)).allowLocalRequestsFromWebHooksAndServices;
}

/** GitLab's authenticated_as_admin!: 403 for everyone else. */
export function requireAdmin(actor: Actor): void {
  if (!actor.user.admin) throw forbidden();
}

export function settingsEntity(s: ApplicationSetting) {
  return {
    id: s.id,
    allow_local_requests_from_web_hooks_and_services: s.allowLocalRequestsFromWebHooksAndServices,
    allow_runner_registration_token: s.allowRunnerRegistrationToken,
    valid_runner_registrars: s.validRunnerRegistrars,
    runner_token_expiration_interval: s.runnerTokenExpirationInterval,
    group_runner_token_expiration_interval: s.groupRunnerTokenExpirationInterval,
    project_runner_token_expiration_interval: s.projectRunnerTokenExpirationInterval,
    // Runway extension: the daily stale-runner cleanup and its rule.
    stale_runner_cleanup_enabled: s.staleRunnerCleanupEnabled,
    stale_runner_cleanup_days: s.staleRunnerCleanupDays,
    stale_runner_cleanup_runner_type: s.staleRunnerCleanupRunnerType,
    stale_runner_cleanup_owner_group_id: s.staleRunnerCleanupOwnerGroupId,
    stale_runner_cleanup_owner_project_id: s.staleRunnerCleanupOwnerProjectId,
    // GitLab's runner version management (off by default in Runway): the daily refresh of the gitlab-runner
    // release list the upgrade statuses come from, and where it is fetched.
    update_runner_versions_enabled: s.updateRunnerVersionsEnabled,
    public_runner_releases_url: s.publicRunnerReleasesUrl,
    updated_at: s.updatedAt.toISOString(),
  };
}

export interface SettingsChange {
  allow_local_requests_from_web_hooks_and_services?: boolean | null;
  allow_runner_registration_token?: boolean | null;
  valid_runner_registrars?: string[] | null;
  runner_token_expiration_interval?: number | null;
  group_runner_token_expiration_interval?: number | null;
  project_runner_token_expiration_interval?: number | null;
  stale_runner_cleanup_enabled?: boolean | null;
  stale_runner_cleanup_days?: number | null;
  stale_runner_cleanup_runner_type?: RunnerType | null;
  stale_runner_cleanup_owner_group_id?: number | null;
  stale_runner_cleanup_owner_project_id?: number | null;
  update_runner_versions_enabled?: boolean | null;
  public_runner_releases_url?: string | null;
}

const INTERVALS = ['runner_token_expiration_interval', 'group_runner_token_expiration_interval', 'project_runner_token_expiration_interval'] as const;

export async function updateSettings(actor: Actor, change: SettingsChange): Promise<ApplicationSetting> {
  requireAdmin(actor);
  const errors: Record<string, string[]> = {};
  for (const key of INTERVALS) {
    const v = change[key];
    if (typeof v === 'number' && v < 0) (errors[key] ??= []).push('must be greater than or equal to 0');
    // The columns are PostgreSQL integers (about 68 years in seconds).
    if (typeof v === 'number' && v > MAX_INT4) (errors[key] ??= []).push(`must be less than or equal to ${MAX_INT4}`);
  }
  if (change.allow_runner_registration_token === null) errors.allow_runner_registration_token = ['is not included in the list'];
  if (change.allow_local_requests_from_web_hooks_and_services === null) {
    errors.allow_local_requests_from_web_hooks_and_services = ['is not included in the list'];
  }
  if (change.stale_runner_cleanup_enabled === null) errors.stale_runner_cleanup_enabled = ['is not included in the list'];
  if (change.update_runner_versions_enabled === null) errors.update_runner_versions_enabled = ['is not included in the list'];
  const urlProblem = await releasesUrlProblem(change);
  if (urlProblem) errors.public_runner_releases_url = [urlProblem];
  Object.assign(errors, await cleanupRuleErrors(change));
  if (Object.keys(errors).length) throw validationError(errors);
  await currentSettings();
  const data: Prisma.ApplicationSettingUpdateInput = {};
  if (typeof change.allow_local_requests_from_web_hooks_and_services === 'boolean') {
    data.allowLocalRequestsFromWebHooksAndServices = change.allow_local_requests_from_web_hooks_and_services;
  }
  if (typeof change.allow_runner_registration_token === 'boolean') data.allowRunnerRegistrationToken = change.allow_runner_registration_token;
  if (change.valid_runner_registrars !== undefined) data.validRunnerRegistrars = [...new Set(change.valid_runner_registrars ?? [])];
  if (change.runner_token_expiration_interval !== undefined) data.runnerTokenExpirationInterval = change.runner_token_expiration_interval;
  if (change.group_runner_token_expiration_interval !== undefined) data.groupRunnerTokenExpirationInterval = change.group_runner_token_expiration_interval;
  if (change.project_runner_token_expiration_interval !== undefined)
    data.projectRunnerTokenExpirationInterval = change.project_runner_token_expiration_interval;
  if (typeof change.stale_runner_cleanup_enabled === 'boolean') data.staleRunnerCleanupEnabled = change.stale_runner_cleanup_enabled;
  if (typeof change.stale_runner_cleanup_days === 'number') data.staleRunnerCleanupDays = change.stale_runner_cleanup_days;
  if (change.stale_runner_cleanup_runner_type !== undefined) data.staleRunnerCleanupRunnerType = change.stale_runner_cleanup_runner_type;
  if (change.stale_runner_cleanup_owner_group_id !== undefined) data.staleRunnerCleanupOwnerGroupId = change.stale_runner_cleanup_owner_group_id;
  if (change.stale_runner_cleanup_owner_project_id !== undefined) data.staleRunnerCleanupOwnerProjectId = change.stale_runner_cleanup_owner_project_id;
  if (typeof change.update_runner_versions_enabled === 'boolean') data.updateRunnerVersionsEnabled = change.update_runner_versions_enabled;
  if (typeof change.public_runner_releases_url === 'string') data.publicRunnerReleasesUrl = change.public_runner_releases_url.trim();
  return db().applicationSetting.update({ where: { id: 1 }, data });
}

/** The scheduled cleanup rule is checked as POST /runners/cleanup checks it, as model errors. */
async function cleanupRuleErrors(change: SettingsChange): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const days = change.stale_runner_cleanup_days;
  if (days !== undefined && (days === null || days < MIN_STALE_DAYS || days > MAX_STALE_DAYS)) {
    errors.stale_runner_cleanup_days = [`must be between ${MIN_STALE_DAYS} and ${MAX_STALE_DAYS}`];
  }
  const group = change.stale_runner_cleanup_owner_group_id;
  const project = change.stale_runner_cleanup_owner_project_id;
  if (typeof group === 'number' && typeof project === 'number') {
    errors.stale_runner_cleanup_owner_group_id = ['cannot be set together with stale_runner_cleanup_owner_project_id'];
  } else {
    if (typeof group === 'number' && !(await db().namespace.findFirst({ where: { id: group, kind: 'group' }, select: { id: true } }))) {
      errors.stale_runner_cleanup_owner_group_id = ['does not exist'];
    }
    if (typeof project === 'number' && !(await db().project.findUnique({ where: { id: project }, select: { id: true } }))) {
      errors.stale_runner_cleanup_owner_project_id = ['does not exist'];
    }
  }
  return errors;
}

/**
 * GitLab's validation of public_runner_releases_url: a URL (http or https here, the schemes the refresh
 * fetches), present while the refresh is on. Where it leads is checked when it is fetched (the import URL
 * blocker), as GitLab checks outbound requests.
 */
async function releasesUrlProblem(change: SettingsChange): Promise<string | null> {
  const url = change.public_runner_releases_url;
  if (url !== undefined) {
    if (url === null || !url.trim()) return "can't be blank";
    if (url.length > 2048) return 'is too long (maximum is 2048 characters)';
    try {
      const parsed = new URL(url.trim());
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'is blocked: Only allowed schemes are http, https';
    } catch {
      return 'must be a valid URL';
    }
    return null;
  }
  if (change.update_runner_versions_enabled === true && !(await currentSettings()).publicRunnerReleasesUrl.trim()) return "can't be blank";
  return null;
}
