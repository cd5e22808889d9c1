// A group's settings as POST/PUT /groups take them and Entities::Group shows them: the parameters (GitLab's
// optional_params), their validation with GitLab's messages, the columns they are stored in, and the
// entity's view of those columns. Every key the entity shows is written by some parameter here (issue 24).
import { param, type Parsed } from '../api/params';
import type { Prisma } from '../db/client';
import type { Namespace } from '../db/generated/client';
import { SHARED_RUNNERS_PARAM_VALUES } from './shared-runners-setting';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
/** Gitlab::Access.project_creation_string_values. */
export const PROJECT_CREATION_LEVELS = ['noone', 'owner', 'maintainer', 'developer', 'administrator'] as const;
/** Gitlab::Access.subgroup_creation_string_values. */
export const SUBGROUP_CREATION_LEVELS = ['owner', 'maintainer'] as const;
/** Gitlab::Access.protection_values: none, developers can push, full, developers can merge, initial push. */
export const BRANCH_PROTECTIONS = [0, 1, 2, 3, 4] as const;
/** ProtectedBranch::PushAccessLevel / MergeAccessLevel.allowed_access_levels: no one, Developer, Maintainer, admin. */
const BRANCH_ACCESS_LEVELS = [0, 30, 40, 60];

/** GitLab's `params :optional_params_ce`, shared by POST and PUT /groups. */
export const groupSettingsParams = {
  description: param.string(),
  visibility: param.string().values(VISIBILITIES),
  share_with_group_lock: param.boolean(),
  require_two_factor_authentication: param.boolean(),
  two_factor_grace_period: param.integer(),
  project_creation_level: param.string().values(PROJECT_CREATION_LEVELS),
  auto_devops_enabled: param.boolean(),
  subgroup_creation_level: param.string().values(SUBGROUP_CREATION_LEVELS),
  emails_disabled: param.boolean(),
  emails_enabled: param.boolean(),
  show_diff_preview_in_email: param.boolean(),
  mentions_disabled: param.boolean(),
  lfs_enabled: param.boolean(),
  request_access_enabled: param.boolean(),
  default_branch: param.string(),
  default_branch_protection: param.integer().values(BRANCH_PROTECTIONS),
  default_branch_protection_defaults: param.hash(),
  shared_runners_setting: param.string().values(SHARED_RUNNERS_PARAM_VALUES),
  // Accepted as GitLab declares it; Runway serves no Git protocols, so it is neither stored nor shown.
  enabled_git_access_protocol: param.string().values(['ssh', 'http', 'all']),
};

/** `params :optional_update_params`: PUT only. */
export const groupUpdateOnlyParams = {
  prevent_sharing_groups_outside_hierarchy: param.boolean(),
  lock_math_rendering_limits_enabled: param.boolean(),
  math_rendering_limits_enabled: param.boolean(),
  max_artifacts_size: param.integer(),
};

type SettingsInput = Partial<Parsed<typeof groupSettingsParams> & Parsed<typeof groupUpdateOnlyParams>>;

export interface BranchProtectionDefaults {
  allowed_to_push: { access_level: number }[];
  allow_force_push: boolean;
  allowed_to_merge: { access_level: number }[];
  developer_can_initial_push?: boolean;
}

const levels = (...l: number[]) => l.map((access_level) => ({ access_level }));

/** Gitlab::Access::BranchProtection: the defaults each integer level stands for. */
export function protectionDefaults(level: number): BranchProtectionDefaults {
  switch (level) {
    case 0:
      return { allowed_to_push: levels(30), allow_force_push: true, allowed_to_merge: levels(30) };
    case 1:
      return { allowed_to_push: levels(30), allow_force_push: false, allowed_to_merge: levels(40) };
    case 3:
      return { allowed_to_push: levels(40), allow_force_push: false, allowed_to_merge: levels(30) };
    case 4:
      return { allowed_to_push: levels(40), allow_force_push: false, allowed_to_merge: levels(40), developer_can_initial_push: true };
    default:
      return { allowed_to_push: levels(40), allow_force_push: false, allowed_to_merge: levels(40) };
  }
}

/** The integer level the defaults amount to (GitLab reads default_branch_protection off the defaults). */
export function protectionLevel(d: BranchProtectionDefaults): number {
  const push = Math.min(...d.allowed_to_push.map((l) => l.access_level).filter((l) => l > 0), 99);
  const merge = Math.min(...d.allowed_to_merge.map((l) => l.access_level).filter((l) => l > 0), 99);
  if (d.developer_can_initial_push) return 4;
  if (d.allow_force_push && push <= 30) return 0;
  if (push <= 30) return 1;
  if (merge <= 30) return 3;
  return 2;
}

export function effectiveProtectionDefaults(ns: Pick<Namespace, 'defaultBranchProtectionDefaults'>): BranchProtectionDefaults {
  return (ns.defaultBranchProtectionDefaults as BranchProtectionDefaults | null) ?? protectionDefaults(2);
}

/** Validates the nested hash as Grape does (`default_branch_protection_defaults[allowed_to_push][0][access_level]`). */
function parseProtectionDefaults(raw: Record<string, unknown>, current: BranchProtectionDefaults, errors: string[]): BranchProtectionDefaults {
  const name = 'default_branch_protection_defaults';
  const out: BranchProtectionDefaults = { ...current };
  for (const key of ['allowed_to_push', 'allowed_to_merge'] as const) {
    if (raw[key] === undefined) continue;
    const list = raw[key];
    if (!Array.isArray(list)) {
      errors.push(`${name}[${key}] is invalid`);
      continue;
    }
    const parsed: { access_level: number }[] = [];
    list.forEach((item, i) => {
      const v = (item as { access_level?: unknown } | null)?.access_level;
      const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
      if (v === undefined) errors.push(`${name}[${key}][${i}][access_level] is missing`);
      else if (typeof n !== 'number' || !BRANCH_ACCESS_LEVELS.includes(n)) errors.push(`${name}[${key}][${i}][access_level] does not have a valid value`);
      else parsed.push({ access_level: n });
    });
    out[key] = parsed;
  }
  for (const key of ['allow_force_push', 'developer_can_initial_push'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    const b = v === true || v === 'true' ? true : v === false || v === 'false' ? false : null;
    if (b === null) errors.push(`${name}[${key}] is invalid`);
    else if (key === 'allow_force_push') out.allow_force_push = b;
    else if (b) out.developer_can_initial_push = true;
    else delete out.developer_can_initial_push;
  }
  return out;
}

export interface SettingsContext {
  /** The group as stored (null when creating). */
  current: Namespace | null;
  /** Top-level group: only those keep prevent_sharing_groups_outside_hierarchy. */
  root: boolean;
  admin: boolean;
}

/**
 * The columns a request writes, with GitLab's validation messages (`{attribute: [messages]}` for the model,
 * Grape-style strings for the nested hash). Unset parameters leave their column alone.
 */
export function settingsData(
  i: SettingsInput,
  ctx: SettingsContext,
): { data: Prisma.NamespaceUncheckedUpdateInput; modelErrors: Record<string, string[]>; paramErrors: string[] } {
  const data: Prisma.NamespaceUncheckedUpdateInput = {};
  const modelErrors: Record<string, string[]> = {};
  const paramErrors: string[] = [];
  const set = <K extends keyof Prisma.NamespaceUncheckedUpdateInput>(k: K, v: Prisma.NamespaceUncheckedUpdateInput[K] | null | undefined) => {
    if (v !== undefined && v !== null) data[k] = v;
  };
  set('shareWithGroupLock', i.share_with_group_lock);
  set('requireTwoFactorAuthentication', i.require_two_factor_authentication);
  if (i.two_factor_grace_period !== undefined && i.two_factor_grace_period !== null) {
    if (i.two_factor_grace_period < 0) modelErrors.two_factor_grace_period = ['must be greater than or equal to 0'];
    else data.twoFactorGracePeriod = i.two_factor_grace_period;
  }
  set('projectCreationLevel', i.project_creation_level);
  set('subgroupCreationLevel', i.subgroup_creation_level);
  // Nullable in GitLab: null means "follow the instance".
  if (i.auto_devops_enabled !== undefined) data.autoDevopsEnabled = i.auto_devops_enabled;
  if (i.mentions_disabled !== undefined) data.mentionsDisabled = i.mentions_disabled;
  // emails_disabled is the deprecated inverse of emails_enabled; emails_enabled wins when both are sent.
  if (i.emails_disabled !== undefined && i.emails_disabled !== null) data.emailsEnabled = !i.emails_disabled;
  set('emailsEnabled', i.emails_enabled);
  set('showDiffPreviewInEmail', i.show_diff_preview_in_email);
  set('lfsEnabled', i.lfs_enabled);
  set('requestAccessEnabled', i.request_access_enabled);
  // NamespaceSetting#normalize_default_branch_name: a blank name is no name.
  if (i.default_branch !== undefined) data.defaultBranch = i.default_branch?.trim() ? i.default_branch : null;
  const current = ctx.current ? effectiveProtectionDefaults(ctx.current) : protectionDefaults(2);
  if (i.default_branch_protection !== undefined && i.default_branch_protection !== null) {
    data.defaultBranchProtectionDefaults = protectionDefaults(i.default_branch_protection) as unknown as Prisma.InputJsonValue;
  }
  if (i.default_branch_protection_defaults) {
    const d = parseProtectionDefaults(i.default_branch_protection_defaults as Record<string, unknown>, current, paramErrors);
    data.defaultBranchProtectionDefaults = d as unknown as Prisma.InputJsonValue;
  }
  // Groups::UpdateService drops what the caller may not change: the sharing lock of a subgroup, the artifact size of non-admins.
  if (ctx.root) set('preventSharingGroupsOutsideHierarchy', i.prevent_sharing_groups_outside_hierarchy);
  set('mathRenderingLimitsEnabled', i.math_rendering_limits_enabled);
  set('lockMathRenderingLimitsEnabled', i.lock_math_rendering_limits_enabled);
  if (ctx.admin && i.max_artifacts_size !== undefined) {
    if (i.max_artifacts_size !== null && i.max_artifacts_size < 0) modelErrors.max_artifacts_size = ['must be greater than or equal to 0'];
    else data.maxArtifactsSize = i.max_artifacts_size;
  }
  return { data, modelErrors, paramErrors };
}

/** The entity's keys for the stored settings (Entities::Group order is kept by the caller). */
export function settingsView(g: Namespace) {
  const defaults = effectiveProtectionDefaults(g);
  return {
    share_with_group_lock: g.shareWithGroupLock,
    require_two_factor_authentication: g.requireTwoFactorAuthentication,
    two_factor_grace_period: g.twoFactorGracePeriod,
    project_creation_level: g.projectCreationLevel,
    auto_devops_enabled: g.autoDevopsEnabled,
    subgroup_creation_level: g.subgroupCreationLevel,
    emails_disabled: !g.emailsEnabled,
    emails_enabled: g.emailsEnabled,
    show_diff_preview_in_email: g.showDiffPreviewInEmail,
    mentions_disabled: g.mentionsDisabled,
    lfs_enabled: g.lfsEnabled,
    math_rendering_limits_enabled: g.mathRenderingLimitsEnabled,
    lock_math_rendering_limits_enabled: g.lockMathRenderingLimitsEnabled,
    default_branch: g.defaultBranch,
    default_branch_protection: protectionLevel(defaults),
    default_branch_protection_defaults: defaults,
  };
}
