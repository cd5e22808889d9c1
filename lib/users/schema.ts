// Parameter declarations of the users API, in GitLab's declaration order (Grape reports errors in it).
import { ApiError, paramError } from '../api/errors';
import { paginationShape } from '../api/pagination';
import { param, parseParams, type Parsed } from '../api/params';

/** `params :optional_attributes` of lib/api/users.rb (stored when Runway has a column for it). */
const optionalAttributes = {
  skype: param.string(),
  linkedin: param.string(),
  twitter: param.string(),
  discord: param.string(),
  website_url: param.string(),
  organization: param.string(),
  projects_limit: param.integer(),
  extern_uid: param.string(),
  provider: param.string(),
  bio: param.string(),
  location: param.string(),
  pronouns: param.string(),
  public_email: param.string(),
  commit_email: param.string(),
  admin: param.boolean(),
  can_create_group: param.boolean(),
  external: param.boolean(),
  theme_id: param.integer(),
  color_scheme_id: param.integer(),
  private_profile: param.boolean(),
  note: param.string(),
  view_diffs_file_by_file: param.boolean(),
  // Runway extension: GitLab shows job_title but takes it only in the profile page; here the API sets it too.
  job_title: param.string(),
};

// POST /users declares email, password, reset_password, skip_confirmation, then `at_least_one_of`, then the
// rest; Grape validates in that order, so the shape is split where the rule sits.
const createUserHead = {
  email: param.string().required(),
  password: param.string(),
  reset_password: param.boolean(),
  skip_confirmation: param.boolean(),
};
const createUserTail = {
  name: param.string().required(),
  username: param.string().required(),
  force_random_password: param.boolean(),
  ...optionalAttributes,
};

export type CreateUserInput = Parsed<typeof createUserHead> & Parsed<typeof createUserTail>;

/** Both halves are checked and their messages joined in GitLab's order. */
export function parseCreateUser(raw: Record<string, unknown>): CreateUserInput {
  const messages: string[] = [];
  const collect = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ApiError && typeof err.body.error === 'string') {
        messages.push(err.body.error);
        return undefined;
      }
      throw err;
    }
  };
  const head = collect(() => parseParams(createUserHead, raw, { atLeastOneOf: [['password', 'reset_password', 'force_random_password']] }));
  const tail = collect(() => parseParams(createUserTail, raw, { allOrNoneOf: [['extern_uid', 'provider']] }));
  if (messages.length || !head || !tail) throw paramError(messages);
  return { ...head, ...tail };
}

export const listUsersParams = {
  username: param.string(),
  extern_uid: param.string(),
  provider: param.string(),
  search: param.string(),
  active: param.boolean().default(false),
  external: param.boolean().default(false),
  exclude_external: param.boolean().default(false),
  blocked: param.boolean().default(false),
  created_after: param.dateTime(),
  created_before: param.dateTime(),
  without_projects: param.boolean().default(false),
  exclude_internal: param.boolean().default(false),
  without_project_bots: param.boolean().default(false),
  admins: param.boolean().default(false),
  order_by: param.string().values(['id', 'name', 'username', 'created_at', 'updated_at']).default('id'),
  sort: param.string().values(['asc', 'desc']).default('desc'),
  ...paginationShape,
  with_custom_attributes: param.boolean().default(false),
};
export type ListUsersInput = Parsed<typeof listUsersParams>;

// `optional :exclude_external, as: :non_external` (and exclude_internal): Grape renames them in `params`.
const RENAMED: Record<string, string> = { exclude_external: 'non_external', exclude_internal: 'non_internal' };
// GitLab drops these from `params` for callers who cannot read all resources, before paginating.
const ADMIN_ONLY_PARAMS = ['created_after', 'created_before', 'order_by', 'sort', 'without_projects'];

/**
 * The parameters GitLab's Link header carries for GET /users: everything sent, with the declared ones
 * coerced and their defaults filled in (Grape writes both into `params`), renamed as declared.
 */
export function userListLinkParams(sent: Record<string, unknown>, input: ListUsersInput, admin: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...sent };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === 'page' || key === 'per_page') continue;
    // Date-times stay as sent; every other declared value shows as coerced.
    const shown = value instanceof Date ? sent[key] : value;
    if (RENAMED[key]) delete out[key];
    out[RENAMED[key] ?? key] = shown;
  }
  if (!admin) for (const key of ADMIN_ONLY_PARAMS) delete out[key];
  return out;
}

/** `requires :id, type: Integer` on /users/:id routes. */
export const userIdParams = { id: param.integer().required() };

/** PUT /users/:id: every attribute optional (declared_params(include_missing: false)). */
export const updateUserParams = {
  id: param.integer().required(),
  email: param.string(),
  password: param.string(),
  skip_reconfirmation: param.boolean(),
  name: param.string(),
  username: param.string(),
  ...optionalAttributes,
};
export type UpdateUserInput = Parsed<typeof updateUserParams>;

export const deleteUserParams = {
  id: param.integer().required(),
  hard_delete: param.boolean(),
};

export const userMembershipsParams = {
  user_id: param.integer().required(),
  type: param.string().values(['Project', 'Namespace']),
};
