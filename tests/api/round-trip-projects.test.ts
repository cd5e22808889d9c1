// Issue 24's rule for Entities::Project: each key is set through GitLab's create or update parameters and
// read back as written, or listed read-only with its reason; unknown parameters are ignored as GitLab
// ignores them; the settings are validated with GitLab's messages; the deprecated `*_enabled` booleans and
// the `*_access_level` strings write the same feature level, as GitLab's ProjectFeaturesCompatibility.
import { describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { addProjectMember, createGroup, createProject } from '../support/namespaces';
import { flip, to, walkSettable, type RoundTripCase, type Settable } from '../support/round-trip';
import { createUser } from '../support/users';
import { FEATURE_LEVELS } from '../../lib/namespaces/project-settings';

const LEVELS: readonly string[] = FEATURE_LEVELS;
const BOOLEAN_OF: Record<string, string> = {
  issues_access_level: 'issues_enabled',
  merge_requests_access_level: 'merge_requests_enabled',
  wiki_access_level: 'wiki_enabled',
  builds_access_level: 'jobs_enabled',
  snippets_access_level: 'snippets_enabled',
  container_registry_access_level: 'container_registry_enabled',
};

const bool: Settable = { next: flip };
const level = (key: string): Settable => ({
  // Private keeps a feature on for the Owner reading it, so the coupled boolean is checked both ways.
  next: (v) => (v === 'private' ? (key === 'pages_access_level' ? 'public' : 'enabled') : 'private'),
  couples: [
    ...(BOOLEAN_OF[key] ? [BOOLEAN_OF[key]] : []),
    ...(key === 'merge_requests_access_level' || key === 'repository_access_level' ? ['can_create_merge_request_in'] : []),
  ],
});
const featureBoolean = (levelKey: string): Settable => ({
  next: flip,
  couples: [levelKey, ...(levelKey === 'merge_requests_access_level' ? ['can_create_merge_request_in'] : [])],
});

/** Reported but set by no create or update parameter, each with why. */
const READ_ONLY: Record<string, string> = {
  id: 'assigned by the server',
  name_with_namespace: 'derived from the namespace and name',
  path_with_namespace: 'derived from the namespace and path',
  created_at: 'set by the server',
  ssh_url_to_repo: 'derived from the path',
  http_url_to_repo: 'derived from the path',
  web_url: 'derived from the path',
  readme_url: 'derived from the repository content (Runway: none)',
  forks_count: 'counted (Runway has no forks)',
  avatar_url: 'set by an avatar upload, which Runway does not store: null, as GitLab without an avatar',
  star_count: 'counted (Runway has no stars)',
  last_activity_at: 'set by activity',
  namespace: 'moved by PUT /projects/:id/transfer, not by the create or update parameters',
  container_registry_image_prefix: 'derived from the path',
  _links: 'derived from the id',
  empty_repo: 'derived from the repository',
  archived: 'set by POST /projects/:id/archive and /unarchive (not the update parameters)',
  service_desk_enabled: 'GitLab keeps it false without incoming email, which Runway does not receive',
  service_desk_address: 'derived from incoming email (none)',
  can_create_merge_request_in: "derived from the viewer's role and the repository and merge request levels",
  creator_id: 'the creating user',
  import_url: 'create only, and it starts an import (tests/api/repository-mirrors)',
  import_type: 'derived from import_url',
  import_status: 'set by the import',
  import_error: 'set by the import',
  open_issues_count: 'counted (Runway has no issues)',
  description_html: 'rendered from description',
  updated_at: 'set on each write',
  ci_job_token_scope_enabled: 'set through /projects/:id/job_token_scope, not the update parameters',
  runner_token_expiration_interval: "GitLab sets it in the project's CI/CD settings (GraphQL), not the REST parameters",
  shared_with_groups: 'set by POST and DELETE /projects/:id/share',
  permissions: "the viewer's memberships",
};

const SETTABLE: Record<string, Settable> = {
  description: { next: (v) => `${v ?? ''} changed`, couples: ['description_html'] },
  name: { next: (v) => `${v} renamed`, couples: ['name_with_namespace'] },
  path: {
    next: (v) => `${v}-moved`,
    couples: ['path_with_namespace', 'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'container_registry_image_prefix'],
  },
  // PUT accepts only an existing branch ("Could not change HEAD", tests/api/projects-update-delete); a new
  // project takes any name.
  default_branch: { next: to('trunk'), createOnly: true },
  tag_list: { next: to(['deprecated-topic']), couples: ['topics'] },
  topics: { next: to(['runners', 'fleet']), couples: ['tag_list'] },
  packages_enabled: bool,
  visibility: { next: to('internal') },
  resolve_outdated_diff_discussions: bool,
  repository_object_format: { next: to('sha256'), createOnly: true },
  issues_enabled: featureBoolean('issues_access_level'),
  merge_requests_enabled: featureBoolean('merge_requests_access_level'),
  wiki_enabled: featureBoolean('wiki_access_level'),
  jobs_enabled: featureBoolean('builds_access_level'),
  snippets_enabled: featureBoolean('snippets_access_level'),
  container_registry_enabled: featureBoolean('container_registry_access_level'),
  ...Object.fromEntries(LEVELS.map((k) => [k, level(k)])),
  emails_disabled: { next: flip, couples: ['emails_enabled'] },
  emails_enabled: { next: flip, couples: ['emails_disabled'] },
  shared_runners_enabled: bool,
  group_runners_enabled: bool,
  lfs_enabled: bool,
  ci_default_git_depth: { next: to(50) },
  ci_forward_deployment_enabled: bool,
  ci_separated_caches: bool,
  ci_allow_fork_pipelines_to_run_in_parent_project: bool,
  build_git_strategy: { next: to('clone') },
  keep_latest_artifact: bool,
  restrict_user_defined_variables: bool,
  public_jobs: bool,
  build_timeout: { next: to(7200) },
  auto_cancel_pending_pipelines: { next: to('disabled') },
  ci_config_path: { next: to('ci/pipeline.yml') },
  only_allow_merge_if_pipeline_succeeds: bool,
  allow_merge_on_skipped_pipeline: bool,
  request_access_enabled: bool,
  only_allow_merge_if_all_discussions_are_resolved: bool,
  remove_source_branch_after_merge: bool,
  printing_merge_request_link_enabled: bool,
  merge_method: { next: to('ff') },
  squash_option: { next: to('always') },
  enforce_auth_checks_on_uploads: bool,
  suggestion_commit_message: { next: to('Apply %{suggestions_count} suggestion(s)') },
  merge_commit_template: { next: to('Merge %{source_branch} into %{target_branch}') },
  squash_commit_template: { next: to('%{title}') },
  issue_branch_template: { next: to('%{id}-%{title}') },
  warn_about_potentially_unwanted_characters: bool,
  autoclose_referenced_issues: bool,
  max_artifacts_size: { next: to(100) },
};

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token, { visibility: 'public' });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
  return { owner, group, project };
}

function projectCase(t: Awaited<ReturnType<typeof setup>>): RoundTripCase {
  return {
    entity: 'project',
    read: async () => {
      const res = await api('GET', `/projects/${t.project.id}`, { token: t.owner.token });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    update: (params) => api('PUT', `/projects/${t.project.id}`, { token: t.owner.token, json: params }),
    create: async (params) => {
      const res = await api('POST', '/projects', { token: t.owner.token, json: { path: uniq('made'), namespace_id: t.group.id, ...params } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    settable: SETTABLE,
    readOnly: READ_ONLY,
    volatile: ['updated_at'],
  };
}

describe('[IAC] the round-trip rule: Entities::Project', () => {
  it('every reported key is settable and read back as written, or read-only with a reason', async () => {
    const t = await setup();
    const walked = await walkSettable(projectCase(t));
    expect(walked).toEqual(expect.arrayContaining(Object.keys(SETTABLE)));
  });

  it('every settable key is also set on create (except the update-only ones) and read back', async () => {
    const t = await setup();
    const UPDATE_ONLY = [
      'ci_default_git_depth',
      'keep_latest_artifact',
      'ci_forward_deployment_enabled',
      'ci_allow_fork_pipelines_to_run_in_parent_project',
      'ci_separated_caches',
      'restrict_user_defined_variables',
      'max_artifacts_size',
    ];
    const json: Record<string, unknown> = {
      lfs_enabled: false,
      merge_method: 'rebase_merge',
      squash_option: 'never',
      topics: ['a', 'b'],
      issues_access_level: 'private',
      build_timeout: 900,
      ci_config_path: 'x/.gitlab-ci.yml',
      only_allow_merge_if_pipeline_succeeds: true,
      packages_enabled: false,
      public_jobs: false,
      pages_access_level: 'disabled',
    };
    for (const k of UPDATE_ONLY) json[k] = k === 'ci_default_git_depth' ? 5 : k === 'max_artifacts_size' ? 7 : false;
    const res = await api('POST', '/projects', { token: t.owner.token, json: { path: uniq('made'), namespace_id: t.group.id, ...json } });
    expect(res.status, res.text).toBe(201);
    for (const [k, v] of Object.entries(json)) {
      const defaults: Record<string, unknown> = { ci_default_git_depth: 20, max_artifacts_size: null, restrict_user_defined_variables: false };
      // GitLab's create ignores the update-only parameters: they keep their defaults.
      const want = UPDATE_ONLY.includes(k) ? (k in defaults ? defaults[k] : true) : v;
      expect(res.body[k], k).toEqual(want);
    }
  });
});

describe('[IAC] projects: unknown parameters and validation as GitLab', () => {
  it('an update with only unknown parameters answers GitLab 400 naming every optional parameter; with a known one they are ignored', async () => {
    const t = await setup();
    const only = await api('PUT', `/projects/${t.project.id}`, { token: t.owner.token, json: { no_such_setting: true } });
    expect(only.status).toBe(400);
    const message: string = only.body.error;
    expect(message).toMatch(
      /^allow_merge_on_skipped_pipeline, analytics_access_level, autoclose_referenced_issues, .* are missing, at least one parameter must be provided$/,
    );
    for (const k of ['lfs_enabled', 'merge_method', 'topics', 'ci_config_path', 'packages_enabled', 'issues_enabled', 'container_registry_enabled']) {
      expect(message).toContain(k);
    }
    expect(message.split(', ').length).toBeGreaterThan(80);
    const mixed = await api('PUT', `/projects/${t.project.id}`, { token: t.owner.token, json: { lfs_enabled: false, no_such_setting: true } });
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body.lfs_enabled).toBe(false);
    expect(mixed.body).not.toHaveProperty('no_such_setting');
  });

  it("validates with GitLab's messages and statuses", async () => {
    const t = await setup();
    const put = (json: Record<string, unknown>) => api('PUT', `/projects/${t.project.id}`, { token: t.owner.token, json });
    expect(await put({ merge_method: 'squash' })).toMatchObject({ status: 400, body: { error: 'merge_method does not have a valid value' } });
    expect(await put({ issues_access_level: 'public' })).toMatchObject({ status: 400, body: { error: 'issues_access_level does not have a valid value' } });
    expect(await put({ build_timeout: 'soon' })).toMatchObject({ status: 400, body: { error: 'build_timeout is invalid' } });
    expect(await put({ build_timeout: 60 })).toMatchObject({
      status: 400,
      body: { message: { build_timeout: ['needs to be between 10 minutes and 1 month'] } },
    });
    expect(await put({ ci_default_git_depth: 1001 })).toMatchObject({
      status: 400,
      body: { message: { 'ci_cd_settings.default_git_depth': ['must be less than or equal to 1000'] } },
    });
    expect(await put({ ci_config_path: '../secret.yml' })).toMatchObject({
      status: 400,
      body: { message: { ci_config_path: ['cannot include leading slash or directory traversal.'] } },
    });
    expect(await put({ repository_access_level: 'private', builds_access_level: 'enabled' })).toMatchObject({
      status: 400,
      body: { message: { 'project_feature.builds_access_level': ['cannot have higher visibility level than repository access level'] } },
    });
    // Nothing of a refused update was written.
    const shown = await api('GET', `/projects/${t.project.id}`, { token: t.owner.token });
    expect(shown.body).toMatchObject({ build_timeout: 3600, repository_access_level: 'enabled', builds_access_level: 'enabled', ci_default_git_depth: 20 });
  });

  it('the *_enabled booleans and *_access_level write one feature level; private features show to members from their minimum role', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'public' });
    const put = (json: Record<string, unknown>) => api('PUT', `/projects/${project.id}`, { token: owner.token, json });
    expect((await put({ issues_enabled: false })).body).toMatchObject({ issues_enabled: false, issues_access_level: 'disabled' });
    expect((await put({ issues_enabled: true })).body).toMatchObject({ issues_enabled: true, issues_access_level: 'enabled' });
    // Both in one request: the access level is the more precise one and wins.
    expect((await put({ wiki_enabled: false, wiki_access_level: 'private' })).body).toMatchObject({ wiki_enabled: true, wiki_access_level: 'private' });
    expect((await put({ merge_requests_access_level: 'private', issues_access_level: 'private' })).status).toBe(200);
    const guest = await createUser();
    await addProjectMember(owner.token, project.id, guest.id, 10);
    const stranger = await createUser();
    const as = async (token: string) => (await api('GET', `/projects/${project.id}`, { token })).body;
    // ProjectFeature: private issues for Guests and up, private merge requests for Reporters and up.
    expect(await as(guest.token)).toMatchObject({ issues_enabled: true, merge_requests_enabled: false, merge_requests_access_level: 'private' });
    expect(await as(stranger.token)).toMatchObject({ issues_enabled: false, merge_requests_enabled: false });
    expect(await as(owner.token)).toMatchObject({ issues_enabled: true, merge_requests_enabled: true });
    // packages_enabled maps to the package registry level: on again is "public" in a public project (not reported).
    expect((await put({ packages_enabled: false })).body.packages_enabled).toBe(false);
    expect((await put({ packages_enabled: true })).body.packages_enabled).toBe(true);
    // emails_disabled is the deprecated inverse of emails_enabled.
    expect((await put({ emails_disabled: true })).body).toMatchObject({ emails_disabled: true, emails_enabled: false });
    // tag_list is the deprecated name of topics; topics are trimmed and kept once.
    expect((await put({ tag_list: 'a, b ,a' })).body).toMatchObject({ topics: ['a', 'b'], tag_list: ['a', 'b'] });
    expect((await put({ topics: [] })).body).toMatchObject({ topics: [] });
  });
});
