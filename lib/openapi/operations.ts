// What the route files cannot say about themselves: each operation's summary, group, success answer and
// entity. Parameters come from the endpoint declarations and shapes from the entity functions, so this map
// only names them. A test fails when a route method has no entry here (or an entry has no route).
export interface Operation {
  summary: string;
  tag: string;
  /** Success status; 204 has no body. */
  status?: 200 | 201 | 202 | 204;
  /** An entity of entities.generated.json (`A|B`: either, by the caller's rights); `[Name]` is a list (paginated). */
  entity?: string | [string];
  /** An inline JSON Schema for a body that is not an entity. */
  schema?: object;
  /** The success body's media type when it is not JSON (Server-Sent Events). */
  contentType?: string;
  /** Keys the endpoint adds to the entity (Runway extensions such as `_runway`), as JSON Schemas. */
  adds?: Record<string, object>;
  /** The whole operation is a Runway extension (GitLab has no such endpoint). */
  extension?: boolean;
  /** Parameters that are Runway extensions of a GitLab endpoint. */
  extensionParams?: string[];
  /** Authenticated by a runner token in the body or header rather than a user's token. */
  runner?: boolean;
  /**
   * Statuses the operation answers besides success and the ones every operation may (400 with parameters,
   * 401, 403, 404, 413 with a body, 429, 503): 405, 409, 412 and 422 where the code throws them.
   */
  errors?: ReadonlyArray<405 | 409 | 412 | 422>;
}

// Keyset pagination (pagination, id_after, id_before) is GitLab's contract, but GitLab's runner lists lack it.
const keysetExtension = ['pagination', 'id_after', 'id_before'];
const runnerFilters = ['upgrade_status', 'search', 'creator_username', 'with_details', 'owner_group_id', 'owner_project_id', ...keysetExtension];
/** An order keyset pagination cannot follow (GitLab's 405). */
const KEYSET: Operation['errors'] = [405];
const runnerListAdds = {
  _runway: {
    description: 'Runway extension (with_details=true): manager version, IP, job count, owner, tags, upgrade status.',
    anyOf: [{ $ref: '#/components/schemas/RunnerListDetails' }, { type: 'null' }],
  },
  _runway_permissions: { description: 'Runway extension (with_details=true): what the caller may do with the runner.', type: 'object' },
};
const runnerDetailsAdds = {
  _runway_permissions: { description: 'Runway extension (with_permissions=true).', type: 'object' },
  _runway_owner_project_id: { description: 'Runway extension (with_permissions=true).', type: ['integer', 'null'] },
  _runway_token_expires_at: { description: 'Runway extension (with_permissions=true).', type: ['string', 'null'], format: 'date-time' },
};

const count = { type: 'integer', minimum: 0, description: 'Capped at 10,001 like X-Total.' };
const runnerListCounts = {
  type: 'object',
  required: ['runner_type', 'status'],
  properties: {
    runner_type: {
      type: 'object',
      description: 'Runners per type tab, with the status filter kept.',
      properties: { all: count, instance_type: count, group_type: count, project_type: count },
    },
    status: {
      type: 'object',
      description: "Runners per status counter, with the type filter kept (GitLab's overlapping status filters).",
      properties: { online: count, offline: count, stale: count },
    },
  },
};

export const operations: Record<string, Operation> = {
  'GET /audit_events': { summary: 'List instance audit events (admin)', tag: 'Audit events', entity: ['AuditEventEntity'] },
  'GET /audit_events/{id}': { summary: 'Get an instance audit event (admin)', tag: 'Audit events', entity: 'AuditEventEntity' },
  'GET /groups/{id}/audit_events': { summary: "List a group's audit events", tag: 'Audit events', entity: ['AuditEventEntity'] },
  'GET /groups/{id}/audit_events/{audit_event_id}': { summary: "Get one of a group's audit events", tag: 'Audit events', entity: 'AuditEventEntity' },
  'GET /projects/{id}/audit_events': { summary: "List a project's audit events", tag: 'Audit events', entity: ['AuditEventEntity'] },
  'GET /projects/{id}/audit_events/{audit_event_id}': { summary: "Get one of a project's audit events", tag: 'Audit events', entity: 'AuditEventEntity' },
  'GET /runners/{id}/audit_events': {
    summary: "List a runner's audit events (Runway extension: the runner page's Activity tab)",
    tag: 'Audit events',
    entity: ['AuditEventEntity'],
    extension: true,
  },

  'GET /runners/cleanup': {
    summary: 'Preview the runners a stale-runner cleanup rule removes (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extension: true,
  },
  'POST /runners/cleanup': {
    summary: 'Run a stale-runner cleanup, or a dry run (Runway extension, admin)',
    tag: 'Fleet operations',
    status: 201,
    entity: 'CleanupRunEntity',
    extension: true,
  },
  'GET /runners/cleanup/runs': {
    summary: 'List past stale-runner cleanups (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: ['CleanupRunEntity'],
    extension: true,
  },
  'GET /runners/events': {
    summary:
      'Server-Sent Events about the runners you may see (Runway extension): `runner` {id, action}, `position` and `resync`, each with an id; Last-Event-ID (or `last_event_id`) replays what was missed',
    tag: 'Fleet operations',
    status: 200,
    contentType: 'text/event-stream',
    // The stream as the sequence of events it carries; each is one SSE frame (see RunnerStreamEvent).
    schema: { type: 'array', items: { $ref: '#/components/schemas/RunnerStreamEvent' } },
    extension: true,
  },
  'GET /runners/fleet/status': {
    summary: 'Runners by status now (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: 'FleetStatusEntity',
    extension: true,
  },
  'GET /runners/fleet/status_history': {
    summary: 'Runners by status per day, from daily snapshots (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: 'StatusHistory',
    extension: true,
  },
  'GET /runners/fleet/versions': {
    summary: 'Runner managers by version with their upgrade status, counts per status and the release list used (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: 'VersionsInUse',
    extension: true,
  },
  'GET /runners/usage': {
    summary:
      "The runners' usage in a period as CSV (Runway extension, admin): per runner and project, job count, failures, total and median duration and queued time; `from`/`to` (UTC days, included) default to the last full month; `X-Runway-Usage-Runners` says how many runners the file covers",
    tag: 'Fleet operations',
    contentType: 'text/csv',
    schema: { type: 'string' },
    extension: true,
  },
  'GET /groups/{id}/runners/usage': {
    summary:
      "The usage of the runners a group owns (its own, its subgroups' and its projects' runners) as CSV, as GET /runners/usage (Runway extension, group Owner)",
    tag: 'Fleet operations',
    contentType: 'text/csv',
    schema: { type: 'string' },
    extension: true,
  },
  'GET /runners/alert_rules': {
    summary: 'List the fleet alert rules, id order (Runway extension, admin)',
    tag: 'Fleet alerts',
    entity: ['AlertRuleEntity'],
    extension: true,
  },
  'POST /runners/alert_rules': {
    summary:
      'Create a fleet alert rule (Runway extension, admin): kind online_share_below, went_offline, tag_without_online_runner or queue_wait_p95_above; webhook_secret is write-only (webhook_secret_set tells)',
    tag: 'Fleet alerts',
    status: 201,
    entity: 'AlertRuleEntity',
    extension: true,
  },
  'GET /runners/alert_rules/{rule_id}': {
    summary: 'Get a fleet alert rule (Runway extension, admin)',
    tag: 'Fleet alerts',
    entity: 'AlertRuleEntity',
    extension: true,
  },
  'PUT /runners/alert_rules/{rule_id}': {
    summary: 'Change a fleet alert rule (Runway extension, admin); disabling a firing rule resolves its alert',
    tag: 'Fleet alerts',
    entity: 'AlertRuleEntity',
    extension: true,
  },
  'DELETE /runners/alert_rules/{rule_id}': {
    summary: 'Delete a fleet alert rule with its alerts and webhook deliveries (Runway extension, admin)',
    tag: 'Fleet alerts',
    status: 204,
    extension: true,
  },
  'GET /runners/alert_rules/{rule_id}/deliveries': {
    summary: "A fleet alert rule's webhook deliveries, newest first (Runway extension, admin)",
    tag: 'Fleet alerts',
    entity: ['AlertDeliveryEntity'],
    extension: true,
  },
  'POST /runners/alert_rules/{rule_id}/test_webhook': {
    summary: "Queue a test delivery of a fleet alert rule's webhook (Runway extension, admin); 400 when the rule has no webhook_url",
    tag: 'Fleet alerts',
    status: 201,
    entity: 'AlertDeliveryEntity',
    extension: true,
  },
  'GET /runners/alerts': {
    summary: 'Fleet alerts of every rule, newest first; `state` keeps the firing or the resolved ones (Runway extension, admin)',
    tag: 'Fleet alerts',
    entity: ['AlertEntity'],
    extension: true,
  },
  'GET /runners/fleet/jobs': {
    summary: 'Jobs per day, queued durations and the busiest runners (Runway extension, admin)',
    tag: 'Fleet operations',
    entity: 'FleetJobsEntity',
    extension: true,
  },

  'GET /application/settings': { summary: 'Get the application settings', tag: 'Settings', entity: 'SettingsEntity' },
  'PUT /application/settings': { summary: 'Change the application settings', tag: 'Settings', entity: 'SettingsEntity' },

  'GET /groups': { summary: 'List groups', tag: 'Groups', entity: ['GroupEntity'] },
  'POST /groups': { summary: 'Create a group', tag: 'Groups', status: 201, entity: 'GroupDetailEntity' },
  'GET /groups/{id}': { summary: 'Get a group', tag: 'Groups', entity: 'GroupDetailEntity' },
  'PUT /groups/{id}': { summary: 'Update a group', tag: 'Groups', entity: 'GroupDetailEntity' },
  'DELETE /groups/{id}': { summary: 'Delete a group', tag: 'Groups', status: 202 },
  'POST /groups/{id}/share': { summary: 'Share a group with a group', tag: 'Groups', status: 201, entity: 'GroupDetailEntity', errors: [409] },
  'DELETE /groups/{id}/share/{group_id}': { summary: 'Stop sharing a group with a group', tag: 'Groups', status: 204 },
  'GET /groups/{id}/descendant_groups': { summary: "List a group's descendant groups", tag: 'Groups', entity: ['GroupEntity'] },
  'GET /groups/{id}/subgroups': { summary: "List a group's subgroups", tag: 'Groups', entity: ['GroupEntity'] },
  'GET /groups/{id}/projects': { summary: "List a group's projects", tag: 'Groups', entity: ['ProjectEntity|BasicProjectDetails'] },
  'GET /groups/{id}/members': { summary: 'List group members', tag: 'Members', entity: ['MemberEntity'] },
  'POST /groups/{id}/members': { summary: 'Add a group member', tag: 'Members', status: 201, entity: 'MemberEntity', errors: [409] },
  'GET /groups/{id}/members/{user_id}': { summary: 'Get a group member', tag: 'Members', entity: 'MemberEntity' },
  'PUT /groups/{id}/members/{user_id}': { summary: 'Change a group member', tag: 'Members', entity: 'MemberEntity' },
  'DELETE /groups/{id}/members/{user_id}': { summary: 'Remove a group member', tag: 'Members', status: 204, errors: [412] },
  'GET /groups/{id}/members/all': { summary: 'List group members, inherited included', tag: 'Members', entity: ['MemberEntity'] },
  'GET /groups/{id}/members/all/{user_id}': { summary: 'Get a group member, inherited included', tag: 'Members', entity: 'MemberEntity' },
  'GET /groups/{id}/runners': {
    summary: "List a group's runners",
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'GET /groups/{id}/runners/all': {
    summary: "List a group's runners (alias)",
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'POST /groups/{id}/runners/reset_registration_token': {
    summary: "Reset a group's runner registration token",
    tag: 'Runners',
    status: 201,
    entity: 'ResetInstanceRegistrationToken',
  },

  'POST /jobs/request': { summary: 'Request a job (runner agent; long polling)', tag: 'Runner agent', status: 204, runner: true },
  'POST /runners/verify': {
    summary: 'Verify a runner authentication token (runner agent)',
    tag: 'Runner agent',
    status: 200,
    entity: 'RegistrationDetails',
    runner: true,
  },
  'POST /runners': {
    summary: 'Register a runner with a registration token (runner agent)',
    tag: 'Runner agent',
    status: 201,
    entity: 'RegistrationDetails',
    runner: true,
  },
  'DELETE /runners': { summary: 'Delete a runner by its authentication token (runner agent)', tag: 'Runner agent', status: 204, runner: true, errors: [412] },
  'POST /runners/reset_authentication_token': {
    summary: "Reset a runner's authentication token with the current token",
    tag: 'Runner agent',
    status: 201,
    entity: 'ResetTokenResult',
    runner: true,
  },
  'DELETE /runners/managers': { summary: 'Delete a runner manager (runner agent)', tag: 'Runner agent', status: 204, runner: true },

  'GET /merge_requests': { summary: "List the user's merge requests", tag: 'Merge requests', entity: ['MergeRequestBasic|MergeRequestSimple'] },
  'GET /projects/{id}/merge_requests': { summary: "List a project's merge requests", tag: 'Merge requests', entity: ['MergeRequestBasic|MergeRequestSimple'] },
  'POST /projects/{id}/merge_requests': {
    summary: 'Create a merge request',
    tag: 'Merge requests',
    status: 201,
    entity: 'MergeRequestEntity',
    errors: [409, 422],
  },
  'GET /projects/{id}/merge_requests/{merge_request_iid}': { summary: 'Get a merge request', tag: 'Merge requests', entity: 'MergeRequestEntity' },
  'PUT /projects/{id}/merge_requests/{merge_request_iid}': {
    summary: 'Update a merge request',
    tag: 'Merge requests',
    entity: 'MergeRequestEntity',
    errors: [422],
  },
  'DELETE /projects/{id}/merge_requests/{merge_request_iid}': { summary: 'Delete a merge request', tag: 'Merge requests', status: 204 },
  'GET /projects/{id}/merge_requests/{merge_request_iid}/commits': {
    summary: "List a merge request's commits",
    tag: 'Merge requests',
    entity: ['CommitEntity'],
  },
  'GET /projects/{id}/merge_requests/{merge_request_iid}/context_commits': {
    summary: "List a merge request's context commits",
    tag: 'Context commits',
    entity: ['ContextCommitEntity'],
  },
  'POST /projects/{id}/merge_requests/{merge_request_iid}/context_commits': {
    summary: 'Add context commits to a merge request',
    tag: 'Context commits',
    status: 201,
    entity: ['CommitEntity'],
  },
  'DELETE /projects/{id}/merge_requests/{merge_request_iid}/context_commits': {
    summary: 'Remove context commits from a merge request',
    tag: 'Context commits',
    status: 204,
  },

  'GET /namespaces': { summary: 'List namespaces', tag: 'Namespaces', entity: ['NamespaceEntity'] },
  'GET /namespaces/{id}': { summary: 'Get a namespace', tag: 'Namespaces', entity: 'NamespaceEntity' },
  'GET /namespaces/{id}/exists': { summary: 'Whether a namespace path is taken, with a free one', tag: 'Namespaces', entity: 'NamespaceExistence' },

  'GET /personal_access_tokens': { summary: 'List personal access tokens', tag: 'Personal access tokens', entity: ['PersonalAccessTokenWithLastUsedIps'] },
  'GET /personal_access_tokens/{id}': { summary: 'Get a personal access token', tag: 'Personal access tokens', entity: 'PersonalAccessTokenWithLastUsedIps' },
  'DELETE /personal_access_tokens/{id}': { summary: 'Revoke a personal access token', tag: 'Personal access tokens', status: 204 },
  'GET /personal_access_tokens/self': { summary: 'Get the token used for this request', tag: 'Personal access tokens', entity: 'PersonalAccessToken' },
  'DELETE /personal_access_tokens/self': { summary: 'Revoke the token used for this request', tag: 'Personal access tokens', status: 204 },
  'POST /user/personal_access_tokens': {
    summary: 'Create a personal access token for yourself',
    tag: 'Personal access tokens',
    status: 201,
    entity: 'PersonalAccessTokenWithToken',
    errors: [422],
  },
  'POST /users/{id}/personal_access_tokens': {
    summary: 'Create a personal access token for a user (admin)',
    tag: 'Personal access tokens',
    status: 201,
    entity: 'PersonalAccessTokenWithToken',
    errors: [422],
  },

  'GET /projects': { summary: 'List projects', tag: 'Projects', entity: ['ProjectWithAccess|BasicProjectDetails'] },
  'POST /projects': { summary: 'Create a project', tag: 'Projects', status: 201, entity: 'ProjectWithAccess', errors: [422] },
  'GET /projects/{id}': { summary: 'Get a project', tag: 'Projects', entity: 'ProjectWithAccess|BasicProjectDetails' },
  'PUT /projects/{id}': { summary: 'Update a project', tag: 'Projects', entity: 'ProjectEntity' },
  'DELETE /projects/{id}': { summary: 'Delete a project', tag: 'Projects', status: 202 },
  'POST /projects/{id}/share': { summary: 'Share a project with a group', tag: 'Projects', status: 201, entity: 'ProjectGroupLinkEntity', errors: [409] },
  'DELETE /projects/{id}/share/{group_id}': { summary: 'Stop sharing a project with a group', tag: 'Projects', status: 204 },
  'GET /projects/{id}/groups': { summary: "List a project's ancestor groups", tag: 'Projects', entity: ['PublicGroupDetails'] },
  'GET /projects/{id}/members': { summary: 'List project members', tag: 'Members', entity: ['MemberEntity'] },
  'POST /projects/{id}/members': { summary: 'Add a project member', tag: 'Members', status: 201, entity: 'MemberEntity', errors: [409] },
  'GET /projects/{id}/members/{user_id}': { summary: 'Get a project member', tag: 'Members', entity: 'MemberEntity' },
  'PUT /projects/{id}/members/{user_id}': { summary: 'Change a project member', tag: 'Members', entity: 'MemberEntity' },
  'DELETE /projects/{id}/members/{user_id}': { summary: 'Remove a project member', tag: 'Members', status: 204, errors: [412] },
  'GET /projects/{id}/members/all': { summary: 'List project members, inherited included', tag: 'Members', entity: ['MemberEntity'] },
  'GET /projects/{id}/members/all/{user_id}': { summary: 'Get a project member, inherited included', tag: 'Members', entity: 'MemberEntity' },
  'GET /projects/{id}/repository/branches': { summary: 'List branches', tag: 'Repository', entity: ['BranchEntity'] },
  'GET /projects/{id}/repository/branches/{branch}': { summary: 'Get a branch', tag: 'Repository', entity: 'BranchEntity' },
  'GET /projects/{id}/repository/commits': { summary: 'List commits', tag: 'Repository', entity: ['CommitEntity'], extensionParams: ['search'] },
  'GET /projects/{id}/repository/commits/{sha}': { summary: 'Get a commit', tag: 'Repository', entity: 'CommitEntity' },
  'GET /projects/{id}/runners': {
    summary: "List a project's runners",
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'POST /projects/{id}/runners': { summary: 'Assign a runner to a project', tag: 'Runners', status: 201, entity: 'RunnerSummary' },
  'DELETE /projects/{id}/runners/{runner_id}': { summary: 'Unassign a runner from a project', tag: 'Runners', status: 204, errors: [412] },
  'GET /projects/{id}/runners/all': {
    summary: "List a project's runners (alias)",
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'GET /runners/all/counts': {
    summary: "The runner list's tab and status counts in one read (Runway extension, admin)",
    tag: 'Runners',
    schema: runnerListCounts,
    extension: true,
  },
  'GET /groups/{id}/runners/counts': {
    summary: "A group runner list's tab and status counts in one read (Runway extension)",
    tag: 'Runners',
    schema: runnerListCounts,
    extension: true,
  },
  'GET /runners/tags': {
    summary: "Tag names runners carry, for the runner list's suggestions (Runway extension, admin)",
    tag: 'Runners',
    schema: {
      type: 'array',
      maxItems: 20,
      items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    },
    extension: true,
  },
  'GET /projects/{id}/runners/assignable': {
    summary: "List runners a project's maintainer may assign to it (Runway extension)",
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extension: true,
    errors: KEYSET,
  },
  'POST /projects/{id}/runners/reset_registration_token': {
    summary: "Reset a project's runner registration token",
    tag: 'Runners',
    status: 201,
    entity: 'ResetInstanceRegistrationToken',
  },

  'GET /runners': {
    summary: 'List owned runners',
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'GET /runners/all': {
    summary: 'List all runners (admin)',
    tag: 'Runners',
    entity: ['RunnerSummary'],
    adds: runnerListAdds,
    extensionParams: runnerFilters,
    errors: KEYSET,
  },
  'GET /runners/{id}': {
    summary: "Get a runner's details (`upgrade_status`: a Runway extension, GitLab's GraphQL CiRunner.upgradeStatus)",
    tag: 'Runners',
    entity: 'RunnerDetails',
    adds: runnerDetailsAdds,
    extensionParams: ['with_permissions'],
  },
  'PUT /runners/{id}': { summary: "Update a runner's details", tag: 'Runners', entity: 'RunnerDetails' },
  'DELETE /runners/{id}': { summary: 'Delete a runner', tag: 'Runners', status: 204, errors: [412] },
  'GET /runners/{id}/jobs': { summary: "List a runner's jobs", tag: 'Runners', entity: ['JobBasicWithProject'], errors: [405] },
  'GET /runners/{id}/managers': {
    summary: "List a runner's managers (`upgrade_status`: a Runway extension, GitLab's GraphQL CiRunnerManager.upgradeStatus)",
    tag: 'Runners',
    entity: ['RunnerManagerEntity'],
  },
  'GET /runners/{id}/projects': { summary: "List a runner's projects", tag: 'Runners', entity: ['BasicProjectDetails'] },
  'POST /runners/{id}/reset_authentication_token': {
    summary: "Reset a runner's authentication token",
    tag: 'Runners',
    status: 201,
    entity: 'ResetTokenResult',
  },
  'POST /runners/reset_registration_token': {
    summary: "Reset the instance's runner registration token",
    tag: 'Runners',
    status: 201,
    entity: 'ResetInstanceRegistrationToken',
  },
  'POST /user/runners': { summary: 'Create a runner', tag: 'Runners', status: 201, entity: 'RegistrationDetails' },

  'GET /user': { summary: 'Get the current user', tag: 'Users', entity: 'UserPublic|UserWithAdmin' },
  'GET /user/sessions': { summary: "List the current user's active sessions (Runway extension)", tag: 'Users', entity: ['UserSession'], extension: true },
  'DELETE /user/sessions/{id}': { summary: 'Revoke one of your sessions (Runway extension)', tag: 'Users', status: 204, extension: true },
  'GET /users': { summary: 'List users', tag: 'Users', entity: ['UserBasic|UserWithAdmin'] },
  'POST /users': { summary: 'Create a user (admin)', tag: 'Users', status: 201, entity: 'UserWithAdmin', errors: [409], extensionParams: ['job_title'] },
  'GET /users/{id}': { summary: 'Get a user', tag: 'Users', entity: 'UserDetails|UserDetailsWithAdmin' },
  'PUT /users/{id}': { summary: 'Modify a user (admin)', tag: 'Users', entity: 'UserWithAdmin', errors: [409], extensionParams: ['job_title'] },
  'DELETE /users/{id}': { summary: 'Delete a user (admin)', tag: 'Users', status: 204, errors: [409, 412] },
  'POST /users/{id}/block': {
    summary: 'Block a user (admin): `true`, or `null` when already blocked',
    tag: 'Users',
    status: 201,
    schema: { type: ['boolean', 'null'] },
  },
  'POST /users/{id}/unblock': { summary: 'Unblock a user (admin)', tag: 'Users', status: 201, schema: { type: 'boolean' } },
  'POST /users/{id}/unlock': {
    summary: "Lift a user's sign-in locks (admin; Runway extension): `true`, or `false` when none was on",
    tag: 'Users',
    status: 201,
    schema: { type: 'boolean' },
    extension: true,
  },
  'GET /users/{id}/memberships': { summary: "List a user's memberships (admin)", tag: 'Users', entity: ['MembershipEntity'] },
  'GET /users/{id}/projects': { summary: "List a user's projects", tag: 'Users', entity: ['ProjectWithAccess|ProjectEntity|BasicProjectDetails'] },

  'GET /openapi.json': {
    summary: 'This document: OpenAPI 3.1 of every /api/v4 route (Runway extension)',
    tag: 'Metadata',
    schema: { type: 'object' },
    extension: true,
  },
  'GET /metadata': { summary: 'Get the metadata of the instance', tag: 'Metadata', entity: 'Metadata' },
  'GET /version': { summary: 'Get the version (deprecated: GET /metadata answers the same)', tag: 'Metadata', entity: 'Metadata' },
};
