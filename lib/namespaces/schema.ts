// Parameter declarations of the groups, projects and members APIs, in GitLab's declaration order.
import { paramError } from '../api/errors';
import { param } from '../api/params';
import { groupSettingsParams, groupUpdateOnlyParams } from './group-settings';
import { projectCreateOnlyParams, projectSettingParams, projectUpdateOnlyParams, UPDATE_AT_LEAST_ONE_OF } from './project-settings';

const VISIBILITIES = ['private', 'internal', 'public'] as const;
const ACCESS_LEVELS = [10, 15, 20, 30, 40, 50] as const;
const MIN_ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

export const listGroupsParams = {
  statistics: param.boolean(),
  skip_groups: param.array(),
  all_available: param.boolean(),
  visibility: param.string().values(VISIBILITIES),
  search: param.string(),
  owned: param.boolean().default(false),
  order_by: param.string().values(['name', 'path', 'id', 'similarity']).default('name'),
  sort: param.string().values(['asc', 'desc']).default('asc'),
  min_access_level: param.integer().values(MIN_ACCESS_LEVELS),
  top_level_only: param.boolean(),
};

/** GET /groups/:id */
export const showGroupParams = {
  with_projects: param.boolean().default(true),
};

export const createGroupParams = {
  name: param.string().required(),
  path: param.string().required(),
  parent_id: param.integer(),
  // Runway has the one organization GitLab creates (id 1); another id finds none.
  organization_id: param.integer(),
  ...groupSettingsParams,
};

export const listProjectsParams = {
  order_by: param.string().values(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).default('created_at'),
  sort: param.string().values(['asc', 'desc']).default('desc'),
  archived: param.boolean(),
  visibility: param.string().values(VISIBILITIES),
  search: param.string(),
  owned: param.boolean().default(false),
  starred: param.boolean().default(false),
  membership: param.boolean().default(false),
  simple: param.boolean().default(false),
  min_access_level: param.integer().values(MIN_ACCESS_LEVELS),
  statistics: param.boolean().default(false),
};

/** GET /groups/:id/projects (GitLab's declaration; with_shared adds the projects shared with the group). */
export const listGroupProjectsParams = {
  archived: param.boolean(),
  visibility: param.string().values(VISIBILITIES),
  search: param.string(),
  order_by: param.string().values(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).default('created_at'),
  sort: param.string().values(['asc', 'desc']).default('desc'),
  simple: param.boolean().default(false),
  owned: param.boolean().default(false),
  starred: param.boolean().default(false),
  with_issues_enabled: param.boolean().default(false),
  with_merge_requests_enabled: param.boolean().default(false),
  with_shared: param.boolean().default(true),
  include_subgroups: param.boolean().default(false),
  include_ancestor_groups: param.boolean().default(false),
  min_access_level: param.integer().values(MIN_ACCESS_LEVELS),
};

export const createProjectParams = {
  name: param.string(),
  path: param.string(),
  default_branch: param.string(),
  description: param.string(),
  visibility: param.string().values(VISIBILITIES),
  import_url: param.string(),
  shared_runners_enabled: param.boolean(),
  group_runners_enabled: param.boolean(),
  namespace_id: param.integer(),
  ...projectSettingParams,
  ...projectCreateOnlyParams,
};

export const createProjectRules = { atLeastOneOf: [['name', 'path']] };

/** PUT /projects/:id (the update params Runway stores; project-settings.ts lists the rest GitLab accepts). */
export const updateProjectParams = {
  name: param.string(),
  default_branch: param.string(),
  path: param.string(),
  description: param.string(),
  visibility: param.string().values(VISIBILITIES),
  shared_runners_enabled: param.boolean(),
  group_runners_enabled: param.boolean(),
  ...projectSettingParams,
  ...projectUpdateOnlyParams,
};

export const updateProjectRules = { atLeastOneOf: [UPDATE_AT_LEAST_ONE_OF] };

/** GET /projects/:id/groups */
export const listProjectGroupsParams = {
  search: param.string(),
  skip_groups: param.array(),
  with_shared: param.boolean().default(false),
  shared_visible_only: param.boolean().default(false),
  shared_min_access_level: param.integer().values(MIN_ACCESS_LEVELS),
};

/** PUT /groups/:id: GitLab declares no at_least_one_of here, so an update of nothing answers the group. */
export const updateGroupParams = {
  name: param.string(),
  path: param.string(),
  ...groupSettingsParams,
  ...groupUpdateOnlyParams,
};

/** POST /groups/:id/share (GitLab's all_values: Guest to Owner, and Planner). */
export const shareGroupParams = {
  group_id: param.integer().required(),
  group_access: param.integer().required().values(ACCESS_LEVELS),
  expires_at: param.date(),
  member_role_id: param.integer(),
};

/** POST /projects/:id/share. */
export const shareProjectParams = {
  group_id: param.integer().required(),
  group_access: param.integer().required().values(ACCESS_LEVELS),
  expires_at: param.date(),
};

/** DELETE /groups/:id/share/:group_id and /projects/:id/share/:group_id. */
export const unshareParams = {
  group_id: param.integer().required(),
};

/** GET /namespaces/:id/exists */
export const namespaceExistsParams = {
  parent_id: param.integer(),
};

export const listMembersParams = {
  query: param.string(),
  user_ids: param.array(),
};

export const createMemberParams = {
  access_level: param.integer().required().values(ACCESS_LEVELS),
  user_id: param.string(),
  username: param.string(),
  expires_at: param.date(),
};

export const createMemberRules = { mutuallyExclusive: [['user_id', 'username']], atLeastOneOf: [['user_id', 'username']] };

export const updateMemberParams = {
  user_id: param.integer().required(),
  access_level: param.integer().required().values(ACCESS_LEVELS),
  expires_at: param.date(),
};

export const deleteMemberParams = {
  user_id: param.integer().required(),
  skip_subresources: param.boolean().default(false),
  unassign_issuables: param.boolean().default(false),
};

export const listNamespacesParams = {
  search: param.string(),
  owned_only: param.boolean(),
  top_level_only: param.boolean().default(false),
  full_path_search: param.boolean().default(false),
};

/** A list parameter of ids (skip_groups, user_ids): digits only, else Grape's 400. */
export const integers = (values: string[] | undefined, name: string): number[] | undefined => {
  if (!values) return undefined;
  if (values.some((v) => !/^\d+$/.test(v))) throw paramError([`${name} is invalid`]);
  return values.map(Number);
};
