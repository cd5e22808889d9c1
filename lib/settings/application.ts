// Instance-wide settings (the one application_settings row, id = 1) that runners depend on:
// registration-token allowance, valid registrars and token expiration intervals. Admin only.
import { MAX_INT4 } from '../db/ids';
import { db, type Prisma } from '../db/client';
import type { ApplicationSetting } from '../db/generated/client';
import type { Actor } from '../auth/authenticate';
import { forbidden, validationError } from '../api/errors';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export const VALID_RUNNER_REGISTRAR_TYPES = ['project', 'group'] as const;
export type RunnerRegistrar = (typeof VALID_RUNNER_REGISTRAR_TYPES)[number];

/** The settings row; created on first use when the bootstrap has not made it yet. */
export async function currentSettings(client: Client = db()): Promise<ApplicationSetting> {
  const found = await client.applicationSetting.findUnique({ where: { id: 1 } });
  return found ?? client.applicationSetting.upsert({ where: { id: 1 }, create: { id: 1 }, update: {} });
}

/** GitLab's authenticated_as_admin!: 403 for everyone else. */
export function requireAdmin(actor: Actor): void {
  if (!actor.user.admin) throw forbidden();
}

export function settingsEntity(s: ApplicationSetting) {
  return {
    id: s.id,
    allow_runner_registration_token: s.allowRunnerRegistrationToken,
    valid_runner_registrars: s.validRunnerRegistrars,
    runner_token_expiration_interval: s.runnerTokenExpirationInterval,
    group_runner_token_expiration_interval: s.groupRunnerTokenExpirationInterval,
    project_runner_token_expiration_interval: s.projectRunnerTokenExpirationInterval,
    updated_at: s.updatedAt.toISOString(),
  };
}

export interface SettingsChange {
  allow_runner_registration_token?: boolean | null;
  valid_runner_registrars?: string[] | null;
  runner_token_expiration_interval?: number | null;
  group_runner_token_expiration_interval?: number | null;
  project_runner_token_expiration_interval?: number | null;
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
  if (Object.keys(errors).length) throw validationError(errors);
  await currentSettings();
  const data: Prisma.ApplicationSettingUpdateInput = {};
  if (typeof change.allow_runner_registration_token === 'boolean') data.allowRunnerRegistrationToken = change.allow_runner_registration_token;
  if (change.valid_runner_registrars !== undefined) data.validRunnerRegistrars = [...new Set(change.valid_runner_registrars ?? [])];
  if (change.runner_token_expiration_interval !== undefined) data.runnerTokenExpirationInterval = change.runner_token_expiration_interval;
  if (change.group_runner_token_expiration_interval !== undefined) data.groupRunnerTokenExpirationInterval = change.group_runner_token_expiration_interval;
  if (change.project_runner_token_expiration_interval !== undefined) data.projectRunnerTokenExpirationInterval = change.project_runner_token_expiration_interval;
  return db().applicationSetting.update({ where: { id: 1 }, data });
}
