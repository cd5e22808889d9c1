// GitLab's permission rules for every /api/v4 operation Runway serves, as data: who passes (a level on the
// subject, or an instance role), what a caller who falls short gets, which token scopes count, and which
// access paths give a level. Pure data and pure functions (no imports): the policy-table API test walks it
// against the live server (tests/api/policy-table.test.ts), and docs/permission-table.md describes it.
// Each row cites the GitLab source it comes from (paths in gitlabhq/gitlabhq).

export type Level = 10 | 20 | 30 | 40 | 50;
export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const OWNER = 50;
export const ROLE_LEVELS: readonly Level[] = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | '*';

/**
 * What the rule is about: a project or group (the caller's effective level there counts), a runner (the
 * caller's level on the runner's owner project), the instance (roles only), or nothing (runner-token API,
 * the catch-all).
 */
export type Subject = 'project' | 'group' | 'runner' | 'instance' | 'runner-token' | 'none';

/** Who passes: a level on the subject, or an instance-wide role. */
export type Minimum = Level | 'admin' | 'signed-in' | 'anyone' | 'nobody';

export interface PolicyRow {
  /** Folder under app/api/v4 (`projects/[id]/share`); '' is the file at app/api/v4/route.ts. */
  route: string;
  method: Method;
  /** A second rule on the same route and method, chosen by the request's parameters. */
  variant?: string;
  /** GitLab's ability (or API helper) that decides. */
  action: string;
  /** `required`: anonymous gets 401 first; `optional`: anonymous is judged like anyone else. */
  auth: 'required' | 'optional' | 'runner-token' | 'none';
  subject: Subject;
  min: Minimum;
  /** A signed-in caller below `min` who can read the subject gets this; one who cannot read it gets 404. */
  deny: 400 | 401 | 403 | 404;
  /**
   * What a signed-in caller who cannot read the subject gets, where GitLab looks the subject up without
   * a visibility check (default: GitLab's 404 of find_project! / find_group!).
   */
  unreadable?: 400 | 403;
  /** What an anonymous caller gets on an `optional`-auth row whose minimum is not `anyone` (default 401/404). */
  anonymous?: 403;
  /** Token scopes the endpoint accepts (`read_api` only ever on reads). */
  scopes: readonly string[];
  /**
   * The request grants an access level (member add/update, share): nobody grants above their own level
   * and only Owners (and admins) grant, change or remove Owner (GRANT_RULE).
   */
  grants?: boolean;
  /** Only members read the subject (a project inside the group does not make it readable). */
  membersOnly?: boolean;
  /** The call changes who has access to something (the escalation property test draws from these). */
  changesAccess?: boolean;
  source: readonly string[];
}

const READ = ['api', 'read_api'] as const;
const WRITE = ['api'] as const;
const READ_USER = ['api', 'read_api', 'read_user'] as const;

// ------------------------------------------------------------------------------------------- sources
const S = {
  perms: 'doc/user/permissions.md',
  guard: 'lib/api/api_guard.rb (scopes, blocked users), lib/gitlab/auth.rb (API_SCOPES, READ_API_SCOPES)',
  helpers: 'lib/api/helpers.rb (authenticate!, sudo!, find_project!, find_group!, not_found! for unreadable)',
  projects: 'lib/api/projects.rb',
  projectPolicy: 'app/policies/project_policy.rb',
  groupPolicy: 'app/policies/group_policy.rb',
  groups: 'lib/api/groups.rb',
  members: 'lib/api/members.rb, lib/api/helpers/members_helpers.rb',
  memberPolicies: 'app/policies/project_member_policy.rb, app/policies/group_member_policy.rb',
  memberServices: 'app/services/members/creator_service.rb, app/services/members/update_service.rb, app/services/members/destroy_service.rb',
  projectLinks: 'app/services/projects/group_links/create_service.rb, app/services/projects/group_links/destroy_service.rb',
  groupLinks: 'app/services/groups/group_links/create_service.rb, app/services/groups/group_links/destroy_service.rb',
  runners: 'lib/api/ci/runners.rb',
  runnerPolicy: 'app/policies/ci/runner_policy.rb',
  runnerAgent: 'lib/api/ci/runner.rb',
  userRunners: 'lib/api/user_runners.rb',
  mrs: 'lib/api/merge_requests.rb',
  contextCommits: 'lib/api/merge_request_context_commits.rb',
  repo: 'lib/api/branches.rb, lib/api/commits.rb',
  users: 'lib/api/users.rb',
  tokens: 'lib/api/personal_access_tokens.rb, lib/api/personal_access_tokens/self_information.rb',
  namespaces: 'lib/api/namespaces.rb',
  settings: 'lib/api/settings.rb',
  audit: 'ee/lib/api/audit_events.rb, ee/lib/api/group_audit_events.rb, ee/lib/api/project_audit_events.rb',
  version: 'lib/api/version.rb, lib/api/metadata.rb',
  globalPolicy: 'app/policies/global_policy.rb',
  runway: 'Runway extension (no GitLab endpoint): admin rule as the admin area',
} as const;

// ------------------------------------------------------------------------------------------- the rows
const row = (r: Omit<PolicyRow, 'scopes'> & { scopes?: readonly string[] }): PolicyRow => ({
  scopes: r.method === 'GET' ? READ : WRITE,
  ...r,
});

const projectRead = (route: string, action: string, source: readonly string[], min: Level = GUEST, auth: PolicyRow['auth'] = 'required') =>
  row({ route, method: 'GET', action, auth, subject: 'project', min, deny: min === GUEST ? 404 : 403, source });

export const PERMISSION_TABLE: readonly PolicyRow[] = [
  // -------------------------------------------------------------- catch-all and root
  row({
    route: '[...path]',
    method: '*',
    action: 'no route (Grape 404)',
    auth: 'none',
    subject: 'none',
    min: 'nobody',
    deny: 404,
    scopes: [],
    source: ['lib/api/api.rb (route_not_found)'],
  }),
  row({
    route: '',
    method: '*',
    action: 'no route (Grape 404)',
    auth: 'none',
    subject: 'none',
    min: 'nobody',
    deny: 404,
    scopes: [],
    source: ['lib/api/api.rb (route_not_found)'],
  }),

  // -------------------------------------------------------------- instance
  row({
    route: 'version',
    method: 'GET',
    action: 'authenticate!',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    scopes: READ_USER,
    source: [S.version],
  }),
  row({
    route: 'metadata',
    method: 'GET',
    action: 'authenticate!',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    scopes: READ_USER,
    source: [S.version],
  }),
  row({ route: 'openapi.json', method: 'GET', action: 'public document', auth: 'optional', subject: 'instance', min: 'anyone', deny: 403, source: [S.runway] }),
  row({
    route: 'application/settings',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.settings],
  }),
  row({
    route: 'application/settings',
    method: 'PUT',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.settings],
  }),
  row({
    route: 'audit_events',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.audit],
  }),
  row({
    route: 'audit_events/[id]',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.audit],
  }),
  row({
    route: 'namespaces',
    method: 'GET',
    action: 'authenticate!',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.namespaces],
  }),
  row({
    route: 'namespaces/[id]/exists',
    method: 'GET',
    action: 'authenticate!',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.namespaces],
  }),
  row({
    route: 'namespaces/[id]',
    method: 'GET',
    action: 'read_namespace_via_membership',
    auth: 'required',
    subject: 'group',
    min: GUEST,
    deny: 404,
    membersOnly: true,
    source: [S.namespaces, S.groupPolicy],
  }),
  row({
    route: 'merge_requests',
    method: 'GET',
    action: 'authenticate! unless scope=all',
    auth: 'optional',
    subject: 'instance',
    min: 'anyone',
    deny: 403,
    source: [S.mrs],
  }),

  // -------------------------------------------------------------- users and tokens
  row({
    route: 'user',
    method: 'GET',
    action: 'authenticate!',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    scopes: READ_USER,
    source: [S.users, S.guard],
  }),
  row({
    route: 'user/personal_access_tokens',
    method: 'POST',
    action: 'authenticate! (k8s_proxy scope only)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'user/sessions',
    method: 'GET',
    action: 'own sessions',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.runway],
  }),
  row({
    route: 'user/sessions/[id]',
    method: 'DELETE',
    action: 'own sessions',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.runway],
  }),
  row({
    route: 'user/runners',
    method: 'POST',
    variant: 'instance_type',
    action: 'create_instance_runner',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.userRunners, S.globalPolicy],
  }),
  row({
    route: 'user/runners',
    method: 'POST',
    variant: 'project_type',
    action: 'create_runners',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    // Project.find_by_id, no visibility check: CreateRunnerService answers every caller without
    // create_runners 403 "Insufficient permissions" (an unknown id is 400 "Missing/invalid project").
    unreadable: 403,
    source: [
      S.userRunners,
      'app/services/ci/runners/create_runner_service.rb',
      'app/services/ci/runners/runner_creation_strategies/project_runner_strategy.rb',
      S.projectPolicy,
    ],
  }),
  row({
    route: 'users',
    method: 'GET',
    action: 'read_users_list',
    auth: 'optional',
    subject: 'instance',
    min: 'anyone',
    deny: 403,
    scopes: READ_USER,
    source: [S.users, S.globalPolicy],
  }),
  row({ route: 'users', method: 'POST', action: 'authenticated_as_admin!', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.users] }),
  row({
    route: 'users/[id]',
    method: 'GET',
    // `forbidden!('Not authorized!') unless current_user`, before any lookup.
    action: 'read_user (signed in)',
    auth: 'optional',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    anonymous: 403,
    scopes: READ_USER,
    source: [S.users],
  }),
  row({
    route: 'users/[id]',
    method: 'PUT',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]',
    method: 'DELETE',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/block',
    method: 'POST',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/unblock',
    method: 'POST',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/unlock',
    method: 'POST',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/memberships',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/personal_access_tokens',
    method: 'POST',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.users],
  }),
  row({
    route: 'users/[id]/projects',
    method: 'GET',
    action: 'read_user_profile + read_project per row',
    auth: 'optional',
    subject: 'instance',
    min: 'anyone',
    deny: 403,
    source: [S.projects],
  }),
  row({
    route: 'personal_access_tokens',
    method: 'GET',
    action: 'own tokens (admins: any user_id)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.tokens],
  }),
  row({
    route: 'personal_access_tokens/[id]',
    method: 'GET',
    // Another user's token: `unauthorized!` (401); only admins learn that an id does not exist (404).
    action: 'read_user_personal_access_tokens',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 401,
    source: [S.tokens],
  }),
  row({
    route: 'personal_access_tokens/[id]',
    method: 'DELETE',
    action: 'revoke_token',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 400,
    source: [S.tokens],
  }),
  row({
    route: 'personal_access_tokens/self',
    method: 'GET',
    action: 'any scope',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    scopes: ['*'],
    source: [S.tokens],
  }),
  row({
    route: 'personal_access_tokens/self',
    method: 'DELETE',
    action: 'any scope',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    scopes: ['*'],
    source: [S.tokens],
  }),

  // -------------------------------------------------------------- groups
  row({
    route: 'groups',
    method: 'GET',
    action: 'public list (private ones to members)',
    auth: 'optional',
    subject: 'instance',
    min: 'anyone',
    deny: 403,
    source: [S.groups],
  }),
  row({
    route: 'groups',
    method: 'POST',
    variant: 'top-level',
    action: 'create_group (can_create_group)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.groups, S.globalPolicy],
  }),
  row({
    route: 'groups',
    method: 'POST',
    variant: 'subgroup',
    action: 'create_subgroup (subgroup_creation_level maintainer)',
    auth: 'required',
    subject: 'group',
    min: MAINTAINER,
    deny: 403,
    changesAccess: true,
    source: [S.groups, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]',
    method: 'GET',
    action: 'read_group',
    auth: 'optional',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.groups, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]',
    method: 'PUT',
    action: 'admin_group',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    source: [S.groups, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]',
    method: 'PUT',
    variant: 'visibility',
    action: 'admin_group',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.groups, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]',
    method: 'PUT',
    variant: 'share_with_group_lock',
    action: 'admin_group + change_share_with_group_lock',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.groups, S.groupPolicy, 'app/services/groups/update_service.rb'],
  }),
  row({
    route: 'groups/[id]',
    method: 'DELETE',
    action: 'remove_group',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.groups, S.groupPolicy],
  }),
  row({ route: 'groups/[id]/subgroups', method: 'GET', action: 'read_group', auth: 'optional', subject: 'group', min: GUEST, deny: 404, source: [S.groups] }),
  row({
    route: 'groups/[id]/descendant_groups',
    method: 'GET',
    action: 'read_group',
    auth: 'optional',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.groups],
  }),
  row({ route: 'groups/[id]/projects', method: 'GET', action: 'read_group', auth: 'optional', subject: 'group', min: GUEST, deny: 404, source: [S.groups] }),
  row({
    route: 'groups/[id]/members',
    method: 'GET',
    action: 'read_group_member',
    auth: 'required',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.members, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/members/all',
    method: 'GET',
    action: 'read_group_member',
    auth: 'required',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.members, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/members/[user_id]',
    method: 'GET',
    action: 'read_group_member',
    auth: 'required',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.members],
  }),
  row({
    route: 'groups/[id]/members/all/[user_id]',
    method: 'GET',
    action: 'read_group_member',
    auth: 'required',
    subject: 'group',
    min: GUEST,
    deny: 404,
    source: [S.members],
  }),
  row({
    route: 'groups/[id]/members',
    method: 'POST',
    action: 'admin_group_member',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    grants: true,
    changesAccess: true,
    source: [S.members, S.memberServices, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/members/[user_id]',
    method: 'PUT',
    action: 'update_group_member',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    grants: true,
    changesAccess: true,
    source: [S.members, S.memberPolicies, S.memberServices],
  }),
  row({
    route: 'groups/[id]/members/[user_id]',
    method: 'DELETE',
    action: 'destroy_group_member',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.members, S.memberPolicies, S.memberServices],
  }),
  row({
    route: 'groups/[id]/share',
    method: 'POST',
    action: 'admin_group_member (share)',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 404,
    grants: true,
    changesAccess: true,
    source: [S.groups, S.groupLinks],
  }),
  row({
    route: 'groups/[id]/share/[group_id]',
    method: 'DELETE',
    action: 'admin_group_member (unshare)',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 404,
    changesAccess: true,
    source: [S.groups, S.groupLinks],
  }),
  row({
    route: 'groups/[id]/runners',
    method: 'GET',
    action: 'read_group_runners',
    auth: 'required',
    subject: 'group',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/runners/all',
    method: 'GET',
    action: 'read_group_runners (Runway extension of GET runners)',
    auth: 'required',
    subject: 'group',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/runners/counts',
    method: 'GET',
    action: 'read_group_runners (Runway extension)',
    auth: 'required',
    subject: 'group',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/runners/usage',
    method: 'GET',
    action: 'export the usage of the runners the group owns (Runway extension)',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    source: [S.runway],
  }),
  row({
    route: 'groups/[id]/runners/reset_registration_token',
    method: 'POST',
    action: 'update_runners_registration_token',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    source: [S.runners, S.groupPolicy],
  }),
  row({
    route: 'groups/[id]/audit_events',
    method: 'GET',
    action: 'read_group_audit_events (Developers: own events)',
    auth: 'required',
    subject: 'group',
    min: DEVELOPER,
    deny: 403,
    source: [S.audit, 'ee/app/policies/ee/group_policy.rb'],
  }),
  row({
    route: 'groups/[id]/audit_events/[audit_event_id]',
    method: 'GET',
    action: 'read_group_audit_events (all)',
    auth: 'required',
    subject: 'group',
    min: OWNER,
    deny: 403,
    source: [S.audit, 'ee/app/policies/ee/group_policy.rb'],
  }),

  // -------------------------------------------------------------- projects
  row({
    route: 'projects',
    method: 'GET',
    action: 'public list (private ones to members)',
    auth: 'optional',
    subject: 'instance',
    min: 'anyone',
    deny: 403,
    source: [S.projects],
  }),
  row({
    route: 'projects',
    method: 'POST',
    variant: 'personal',
    action: 'create_projects (own namespace)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.projects],
  }),
  row({
    route: 'projects',
    method: 'POST',
    variant: 'in group',
    action: 'create_projects (project_creation_level developer)',
    auth: 'required',
    subject: 'group',
    min: DEVELOPER,
    // Projects::CreateService adds `namespace is not valid` when the user may not create projects in the
    // namespace, readable or not, and the API renders the validation error (400).
    deny: 400,
    unreadable: 400,
    changesAccess: true,
    source: [S.projects, 'app/services/projects/create_service.rb', S.groupPolicy],
  }),
  projectRead('projects/[id]', 'read_project', [S.projects, S.projectPolicy], GUEST, 'optional'),
  row({
    route: 'projects/[id]',
    method: 'PUT',
    action: 'admin_project',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.projects, S.projectPolicy],
  }),
  row({
    route: 'projects/[id]',
    method: 'PUT',
    variant: 'visibility',
    action: 'change_visibility_level',
    auth: 'required',
    subject: 'project',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.projects, S.projectPolicy],
  }),
  row({
    route: 'projects/[id]',
    method: 'DELETE',
    action: 'remove_project',
    auth: 'required',
    subject: 'project',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.projects, S.projectPolicy],
  }),
  projectRead('projects/[id]/groups', 'read_project', [S.projects], GUEST, 'optional'),
  projectRead('projects/[id]/members', 'read_project_member', [S.members, S.projectPolicy]),
  projectRead('projects/[id]/members/all', 'read_project_member', [S.members, S.projectPolicy]),
  projectRead('projects/[id]/members/[user_id]', 'read_project_member', [S.members]),
  projectRead('projects/[id]/members/all/[user_id]', 'read_project_member', [S.members]),
  row({
    route: 'projects/[id]/members',
    method: 'POST',
    action: 'admin_project_member',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    grants: true,
    changesAccess: true,
    source: [S.members, S.memberServices, S.projectPolicy],
  }),
  row({
    route: 'projects/[id]/members/[user_id]',
    method: 'PUT',
    action: 'update_project_member',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    grants: true,
    changesAccess: true,
    source: [S.members, S.memberPolicies, S.memberServices],
  }),
  row({
    route: 'projects/[id]/members/[user_id]',
    method: 'DELETE',
    action: 'destroy_project_member',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    changesAccess: true,
    source: [S.members, S.memberPolicies, S.memberServices],
  }),
  row({
    route: 'projects/[id]/members/[user_id]',
    method: 'DELETE',
    variant: 'an Owner',
    action: 'destroy_project_member + manage_owners',
    auth: 'required',
    subject: 'project',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.memberPolicies, 'app/policies/concerns/member_policy_helpers.rb'],
  }),
  row({
    route: 'projects/[id]/share',
    method: 'POST',
    action: 'admin_project (share)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    grants: true,
    changesAccess: true,
    source: [S.projects, S.projectLinks],
  }),
  row({
    route: 'projects/[id]/share/[group_id]',
    method: 'DELETE',
    action: 'admin_project (unshare)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    changesAccess: true,
    source: [S.projects, S.projectLinks],
  }),
  row({
    route: 'projects/[id]/share/[group_id]',
    method: 'DELETE',
    variant: 'an Owner link',
    action: 'admin_project + manage_owners (Owner-access link)',
    auth: 'required',
    subject: 'project',
    min: OWNER,
    deny: 403,
    changesAccess: true,
    source: [S.projects, S.projectLinks],
  }),
  projectRead('projects/[id]/repository/branches', 'read_code', [S.repo, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/repository/branches/[branch]', 'read_code', [S.repo, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/repository/commits', 'read_code', [S.repo, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/repository/commits/[sha]', 'read_code', [S.repo, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/merge_requests', 'read_merge_request', [S.mrs, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/merge_requests/[merge_request_iid]', 'read_merge_request', [S.mrs, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/merge_requests/[merge_request_iid]/commits', 'read_merge_request', [S.mrs, S.projectPolicy], REPORTER, 'optional'),
  projectRead('projects/[id]/merge_requests/[merge_request_iid]/context_commits', 'read_merge_request', [S.contextCommits], REPORTER, 'optional'),
  row({
    route: 'projects/[id]/merge_requests',
    method: 'POST',
    action: 'create_merge_request_from',
    auth: 'required',
    subject: 'project',
    min: DEVELOPER,
    deny: 403,
    source: [S.mrs, S.projectPolicy],
  }),
  row({
    route: 'projects/[id]/merge_requests/[merge_request_iid]',
    method: 'PUT',
    action: 'update_merge_request',
    auth: 'required',
    subject: 'project',
    min: DEVELOPER,
    deny: 403,
    source: [S.mrs, 'app/policies/issuable_policy.rb'],
  }),
  row({
    route: 'projects/[id]/merge_requests/[merge_request_iid]',
    method: 'DELETE',
    action: 'destroy_merge_request',
    auth: 'required',
    subject: 'project',
    min: OWNER,
    deny: 403,
    source: [S.mrs, S.projectPolicy],
  }),
  row({
    route: 'projects/[id]/merge_requests/[merge_request_iid]/context_commits',
    method: 'POST',
    action: 'update_merge_request',
    auth: 'required',
    subject: 'project',
    min: DEVELOPER,
    deny: 403,
    source: [S.contextCommits],
  }),
  row({
    route: 'projects/[id]/merge_requests/[merge_request_iid]/context_commits',
    method: 'DELETE',
    action: 'update_merge_request',
    auth: 'required',
    subject: 'project',
    min: DEVELOPER,
    deny: 403,
    source: [S.contextCommits],
  }),
  row({
    route: 'projects/[id]/audit_events',
    method: 'GET',
    action: 'read_project_audit_events (Developers: own events)',
    auth: 'required',
    subject: 'project',
    min: DEVELOPER,
    deny: 403,
    source: [S.audit, 'ee/app/policies/ee/project_policy.rb'],
  }),
  row({
    route: 'projects/[id]/audit_events/[audit_event_id]',
    method: 'GET',
    action: 'read_project_audit_events (all)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.audit, 'ee/app/policies/ee/project_policy.rb'],
  }),
  row({
    route: 'projects/[id]/runners',
    method: 'GET',
    action: 'admin_project (authorize_admin_project)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'projects/[id]/runners/all',
    method: 'GET',
    action: 'admin_project (Runway extension of GET runners)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'projects/[id]/runners/assignable',
    method: 'GET',
    action: 'admin_project (Runway extension)',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'projects/[id]/runners',
    method: 'POST',
    action: 'admin_project + assign_runner',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),
  row({
    route: 'projects/[id]/runners/[runner_id]',
    method: 'DELETE',
    action: 'admin_project',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'projects/[id]/runners/reset_registration_token',
    method: 'POST',
    action: 'update_runners_registration_token',
    auth: 'required',
    subject: 'project',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.projectPolicy],
  }),

  // -------------------------------------------------------------- runners (user API)
  row({
    route: 'runners',
    method: 'GET',
    action: 'authenticate! (own runners)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'runners/all',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.runners],
  }),
  row({
    route: 'runners/all/counts',
    method: 'GET',
    action: 'authenticated_as_admin!',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.runway],
  }),
  row({
    route: 'runners/tags',
    method: 'GET',
    // The tag token's suggestions of the admin runner list (docs/api.md: "GET /runners/tags?search= (admins)").
    action: 'admin (Runway extension)',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.runway, 'docs/api.md (GET /runners/tags, admins)'],
  }),
  row({
    route: 'runners/events',
    method: 'GET',
    action: 'authenticate! (events of runners the caller reads)',
    auth: 'required',
    subject: 'instance',
    min: 'signed-in',
    deny: 403,
    source: [S.runway],
  }),
  row({ route: 'runners/cleanup', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({ route: 'runners/cleanup', method: 'POST', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({ route: 'runners/cleanup/runs', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  // Fleet alerts (Runway extension): every route admin only.
  ...(
    [
      ['runners/alert_rules', 'GET'],
      ['runners/alert_rules', 'POST'],
      ['runners/alert_rules/[rule_id]', 'GET'],
      ['runners/alert_rules/[rule_id]', 'PUT'],
      ['runners/alert_rules/[rule_id]', 'DELETE'],
      ['runners/alert_rules/[rule_id]/deliveries', 'GET'],
      ['runners/alert_rules/[rule_id]/test_webhook', 'POST'],
      ['runners/alerts', 'GET'],
    ] as const
  ).map(([route, method]) => row({ route, method, action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] })),
  row({ route: 'runners/usage', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({ route: 'runners/fleet/jobs', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({ route: 'runners/fleet/status', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({
    route: 'runners/fleet/status_history',
    method: 'GET',
    action: 'admin',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.runway],
  }),
  row({ route: 'runners/fleet/versions', method: 'GET', action: 'admin', auth: 'required', subject: 'instance', min: 'admin', deny: 403, source: [S.runway] }),
  row({
    route: 'runners/reset_registration_token',
    method: 'POST',
    action: 'update_runners_registration_token (instance)',
    auth: 'required',
    subject: 'instance',
    min: 'admin',
    deny: 403,
    source: [S.runners, S.globalPolicy],
  }),
  row({
    route: 'runners/[id]',
    method: 'GET',
    action: 'read_runner',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]',
    method: 'PUT',
    action: 'update_runner',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]',
    method: 'DELETE',
    action: 'delete_runner',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]/jobs',
    method: 'GET',
    action: 'read_builds (runner)',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]/managers',
    method: 'GET',
    action: 'read_runner_manager',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, 'app/policies/ci/runner_manager_policy.rb'],
  }),
  row({
    route: 'runners/[id]/projects',
    method: 'GET',
    action: 'read_runner (Runway extension)',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runway, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]/audit_events',
    method: 'GET',
    action: 'update_runner (Runway extension)',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runway, S.runnerPolicy],
  }),
  row({
    route: 'runners/[id]/reset_authentication_token',
    method: 'POST',
    action: 'update_runner',
    auth: 'required',
    subject: 'runner',
    min: MAINTAINER,
    deny: 403,
    source: [S.runners, S.runnerPolicy],
  }),

  // -------------------------------------------------------------- runner agent (runner tokens, never user credentials)
  row({
    route: 'runners',
    method: 'POST',
    action: 'registration token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
  row({
    route: 'runners',
    method: 'DELETE',
    action: 'runner token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
  row({
    route: 'runners/verify',
    method: 'POST',
    action: 'runner token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
  row({
    route: 'runners/reset_authentication_token',
    method: 'POST',
    action: 'runner token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
  row({
    route: 'runners/managers',
    method: 'DELETE',
    action: 'runner token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
  row({
    route: 'jobs/request',
    method: 'POST',
    action: 'runner token',
    auth: 'runner-token',
    subject: 'runner-token',
    min: 'nobody',
    deny: 403,
    scopes: [],
    source: [S.runnerAgent],
  }),
];

// ------------------------------------------------------------------------------------------- access paths
/** How a caller comes by a level on a project or group, and whether GitLab counts it. */
export interface AccessPath {
  name: string;
  /** The path gives its level on the project / the group (false: it gives nothing). */
  project: boolean;
  group: boolean;
  /** The group is still readable (GroupPolicy has_projects: a project inside it is readable). */
  groupReadable?: boolean;
  source: readonly string[];
}

export const ACCESS_PATHS: readonly AccessPath[] = [
  { name: 'direct', project: true, group: true, source: [S.perms, 'app/models/project_authorization.rb'] },
  { name: 'inherited', project: true, group: true, source: [S.perms, 'app/models/members/group_member.rb (members of ancestors)'] },
  {
    name: 'project-share',
    project: true,
    group: false,
    groupReadable: true,
    source: ['app/models/project_group_link.rb', 'app/policies/group_policy.rb (has_projects)'],
  },
  { name: 'group-share', project: true, group: true, source: ['app/models/group_group_link.rb', 'app/finders/groups/user_groups_finder.rb'] },
  {
    name: 'locked-share',
    project: false,
    group: false,
    source: ['app/models/group.rb (share_with_group_lock)', 'app/services/projects/group_links/create_service.rb'],
  },
  {
    // An ancestor is locked (the lock cascades onto its subgroups) and an Owner of the locked parent lifted
    // the subgroup's lock: only the project's own namespace's flag counts, so the share grants its level.
    name: 'lock-lifted-by-parent-owner',
    project: true,
    group: false,
    groupReadable: true,
    source: [
      'app/models/namespace.rb (force_share_with_group_lock_on_descendants)',
      'app/policies/group_policy.rb (change_share_with_group_lock: Owner of the locked parent)',
      "app/models/project.rb (allowed_to_share_with_group?: the project namespace's own flag)",
      'lib/gitlab/project_authorizations.rb (links count unless the project namespace is locked)',
    ],
  },
  {
    // The subgroup keeps the lock cascaded from its ancestor: the share made before it gives nothing.
    name: 'ancestor-locked-share',
    project: false,
    group: false,
    source: ['app/models/namespace.rb (force_share_with_group_lock_on_descendants)', 'lib/gitlab/project_authorizations.rb'],
  },
  { name: 'expired-membership', project: false, group: false, source: ['app/models/concerns/expirable.rb', 'app/models/member.rb (active scope)'] },
  { name: 'expired-share', project: false, group: false, source: ['app/models/concerns/expirable.rb', 'app/models/project_group_link.rb'] },
];

/** Blocked and deactivated users: every authenticated request is refused (403) before any rule. */
export const BLOCKED_RULE = { status: 403, source: [S.guard, 'lib/gitlab/auth/user_access.rb'] } as const;
/** Admins pass every rule (admin mode off: GitLab's default `admin_mode: false`). */
export const ADMIN_RULE = { source: [S.perms, 'app/policies/base_policy.rb (admin)', 'lib/gitlab/auth/current_user_mode.rb'] } as const;
/** `Sudo`: an admin's token with the `sudo` scope acts as the named user, judged as that user. */
export const SUDO_RULE = { source: [S.helpers, S.guard] } as const;
/** read_api on a write, or a scope the endpoint does not list: 403 insufficient_scope before any rule. */
export const SCOPE_RULE = { status: 403, source: [S.guard] } as const;

/**
 * Who may grant which level (members, invitations, shares): nobody grants above their own level, and only
 * Owners (and admins) grant, change or remove Owner.
 */
export const GRANT_RULE = {
  source: [
    S.memberServices,
    S.projectLinks,
    'app/policies/concerns/member_policy_helpers.rb',
    'app/services/members/creator_service.rb (cannot_manage_owners?)',
  ],
} as const;

export function mayGrant(own: number, admin: boolean, level: number): boolean {
  if (admin || own >= OWNER) return true;
  return level < OWNER && level <= own;
}

// ------------------------------------------------------------------------------------------- the verdict
export interface Caller {
  anonymous: boolean;
  admin: boolean;
  blocked: boolean;
  /** The token's scopes (null: no token). */
  scopes: readonly string[] | null;
  /** Effective level on the subject (0: none). */
  level: number;
  /** The subject is visible to the caller (private subjects: level >= Guest, or a project inside a group). */
  readable: boolean;
}

/** 'allow', or the status GitLab answers. */
export type Verdict = 'allow' | 400 | 401 | 403 | 404;

export function verdict(r: PolicyRow, c: Caller, grantLevel?: number): Verdict {
  if (r.subject === 'none') return 404;
  if (r.subject === 'runner-token') return 'allow';
  if (c.blocked) return 403;
  if (c.anonymous) {
    if (r.auth === 'required') return 401;
    if (r.min === 'anyone') return 'allow';
    if (r.anonymous) return r.anonymous;
    return r.subject === 'instance' ? 401 : 404;
  }
  const readScopes = r.method === 'GET';
  if (c.scopes && !r.scopes.includes('*') && !c.scopes.some((s) => r.scopes.includes(s) && (s !== 'read_api' || readScopes))) return 403;
  if (c.admin) return 'allow';
  if (r.min === 'anyone' || r.min === 'signed-in') return 'allow';
  if (r.min === 'admin' || r.min === 'nobody') return r.deny;
  // Below the reading level every call is GitLab's 404; a reader below `min` gets the row's refusal.
  if ((r.subject === 'project' || r.subject === 'group') && !c.readable) return r.unreadable ?? 404;
  if (r.min > GUEST && c.level < r.min) return r.deny;
  if (r.grants && grantLevel !== undefined && !mayGrant(c.level, false, grantLevel)) return 403;
  return 'allow';
}

/** The route+method (and variant) key used in reports. */
export const rowKey = (r: Pick<PolicyRow, 'route' | 'method' | 'variant'>) => `${r.method} /${r.route}${r.variant ? ` (${r.variant})` : ''}`;
