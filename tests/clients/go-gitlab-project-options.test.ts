// Debian's go-gitlab (what terraform's GitLab provider is built on): every CreateProjectOptions and
// EditProjectOptions field whose key the project entity reports is set alone and read back as written
// (tests/clients/go/projectoptions walks the structs by reflection). Skipped, saying why, without go or
// the library.
import { describe, expect, it } from 'vitest';
import { uniq } from '../support/api';
import { createGroup } from '../support/namespaces';
import { createUser } from '../support/users';
import { goSkipReason, runGoCommand } from '../support/go-gitlab';

const reason = goSkipReason;

// Options Runway's project entity does not report, so a client reads no value to drift on (EE features,
// mirrors, templates, Auto DevOps, ...; see docs/api.md "Project settings").
const NOT_REPORTED = [
  'approvals_before_merge',
  'auto_devops_deploy_strategy',
  'auto_devops_enabled',
  'build_coverage_regex',
  'container_expiration_policy_attributes',
  'external_authorization_classification_label',
  'merge_pipelines_enabled',
  'merge_trains_enabled',
  'mirror',
  'mirror_trigger_builds',
  'operations_access_level',
  'repository_storage',
  'requirements_access_level',
  'show_default_award_emojis',
  'issues_template',
  'merge_requests_template',
  'mirror_user_id',
  'mirror_overwrites_diverged_branches',
  'only_mirror_protected_branches',
  // Inputs of the creation itself, which GitLab does not report either.
  'group_with_project_templates_id',
  'initialize_with_readme',
  'namespace_id',
  'template_name',
  'template_project_id',
  'use_custom_template',
];

describe('[IAC] go-gitlab: CreateProjectOptions and EditProjectOptions round-trip', () => {
  it(
    `each reported option is read back as written${reason ? ` (skipped: ${reason})` : ''}`,
    { skip: !!reason, meta: { skipReason: reason || undefined }, timeout: 300_000 },
    async () => {
      const user = await createUser();
      const group = await createGroup(user.token, { visibility: 'public' });
      const seen = runGoCommand('projectoptions', { RUNWAY_TOKEN: user.token, RUNWAY_GROUP_ID: String(group.id), RUNWAY_TAG: uniq('goopt') });
      // GitLab ignores these on create too: ci_forward_deployment_enabled is an update-only parameter, and
      // service desk stays off without incoming email (which Runway does not receive).
      expect(Object.keys(seen.create.mismatched).sort()).toEqual(['ci_forward_deployment_enabled', 'service_desk_enabled']);
      expect(seen.create.mismatched.ci_forward_deployment_enabled).toEqual({ sent: false, read: true });
      expect(Object.keys(seen.edit.mismatched), JSON.stringify(seen.edit.mismatched)).toEqual(['service_desk_enabled']);
      for (const op of ['create', 'edit'] as const) {
        expect(
          seen[op].not_reported.filter((k: string) => !NOT_REPORTED.includes(k)),
          `${op}: options neither reported nor listed`,
        ).toEqual([]);
        expect(seen[op].checked, op).toEqual(
          expect.arrayContaining(['lfs_enabled', 'merge_method', 'squash_option', 'builds_access_level', 'topics', 'ci_config_path']),
        );
      }
      expect(seen.edit.checked).toEqual(
        expect.arrayContaining([
          'public_builds',
          'ci_forward_deployment_enabled',
          'ci_default_git_depth',
          'keep_latest_artifact',
          'restrict_user_defined_variables',
          'build_timeout',
        ]),
      );
      expect(seen.edit.checked.length).toBeGreaterThanOrEqual(50);
    },
  );
});
