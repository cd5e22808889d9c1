// Debian's ansible (community.general's gitlab_project over python-gitlab) manages a project on Runway as
// an admin does every day (issue 24): apply twice (the second run changes nothing), change twice, remove
// twice. The module compares each attribute it reads with the wanted one, so any reported setting Runway
// did not store as written would make every run "changed" (or fail, as it did on lfs_enabled).
import { describe, expect, it } from 'vitest';
import { api, baseUrl, uniq } from '../support/api';
import { hasAnsible, playTask } from '../support/ansible';
import { createGroup } from '../support/namespaces';
import { createUser } from '../support/users';

const play = (args: Record<string, unknown>) => playTask('community.general.gitlab_project', args);

describe.skipIf(!hasAnsible)('[IAC] ansible community.general.gitlab_project against Runway', () => {
  it('apply, apply again (no change); change, change again (no change); remove, remove again (no change)', { timeout: 600_000 }, async () => {
    const user = await createUser();
    const group = await createGroup(user.token, { visibility: 'internal' });
    const name = uniq('ansible');
    const base = { api_url: baseUrl(), api_token: user.token, validate_certs: false, group: group.full_path, name, path: name };
    const first = {
      ...base,
      description: 'managed by ansible',
      visibility: 'private',
      // The module's own defaults (lfs_enabled false, merge_method merge, the *_enabled features on) apply too.
    };
    const applied = await play(first);
    expect(applied.failed, JSON.stringify(applied.result)).toBe(0);
    expect(applied.changed).toBe(1);
    expect(await play(first)).toMatchObject({ changed: 0, failed: 0 });

    const second = {
      ...base,
      description: 'changed by ansible',
      visibility: 'internal',
      lfs_enabled: true,
      issues_enabled: false,
      wiki_enabled: false,
      merge_method: 'ff',
      squash_option: 'always',
      only_allow_merge_if_pipeline_succeeds: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
      allow_merge_on_skipped_pipeline: true,
      remove_source_branch_after_merge: false,
      packages_enabled: false,
      ci_config_path: 'ci/pipeline.yml',
      shared_runners_enabled: false,
      builds_access_level: 'private',
      forking_access_level: 'disabled',
      container_registry_access_level: 'private',
      releases_access_level: 'disabled',
      environments_access_level: 'private',
      feature_flags_access_level: 'disabled',
      infrastructure_access_level: 'disabled',
      monitor_access_level: 'private',
      security_and_compliance_access_level: 'disabled',
      topics: ['runners', 'iac'],
    };
    const changed = await play(second);
    expect(changed.failed, JSON.stringify(changed.result)).toBe(0);
    expect(changed.changed).toBe(1);
    const again = await play(second);
    expect(again.failed, JSON.stringify(again.result)).toBe(0);
    expect(again.changed, JSON.stringify(again.result.msg)).toBe(0);

    const shown = await api('GET', `/projects/${encodeURIComponent(`${group.full_path}/${name}`)}`, { token: user.token });
    expect(shown.body).toMatchObject({
      description: 'changed by ansible',
      lfs_enabled: true,
      issues_enabled: false,
      merge_method: 'ff',
      squash_option: 'always',
      packages_enabled: false,
      ci_config_path: 'ci/pipeline.yml',
      builds_access_level: 'private',
      topics: ['runners', 'iac'],
    });

    expect(await play({ ...base, state: 'absent' })).toMatchObject({ changed: 1, failed: 0 });
    expect(await play({ ...base, state: 'absent' })).toMatchObject({ changed: 0, failed: 0 });
    expect((await api('GET', `/projects/${shown.body.id}`, { token: user.token })).status).toBe(404);
  });
});
