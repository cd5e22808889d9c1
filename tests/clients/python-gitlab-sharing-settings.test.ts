// [NAMESPACES] The real python-gitlab (Debian python3-gitlab) on group sharing, namespace existence and the
// group and user settings round-trip (issue 24): python-gitlab's functional cases pass against Runway.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken, uniq } from '../support/api';

describe('[NAMESPACES] python-gitlab: sharing, namespaces exists, settings', () => {
  it('shares and unshares groups and projects, asks whether namespaces exist, and reads settings back as saved', () => {
    const tag = uniq('py').replace(/-/g, '');
    const run = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python_gitlab_sharing_settings.py')], {
      env: { ...process.env, RUNWAY_URL: baseUrl(), RUNWAY_ADMIN_TOKEN: rootToken(), RUNWAY_TAG: tag },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(seen.group_shared).toEqual([[expect.any(Number), 30]]);
    expect(seen.group_unshared).toEqual([]);
    expect(seen.group_unshare_again).toEqual({ code: 404, message: '404 Group Link Not Found' });
    expect(seen.project_shared).toEqual([
      { group_id: expect.any(Number), group_name: `${tag} four`, group_full_path: `${tag}-four`, group_access_level: 40, expires_at: '2999-01-01' },
    ]);
    expect(seen.project_unshared).toEqual([]);
    expect(seen.exists_user).toBe(true);
    expect(seen.exists_group).toEqual({ exists: true, suggests: [`${tag}-one1`] });
    expect(seen.exists_none).toBe(false);
    expect(seen.exists_under_parent).toBe(true);
    expect(seen.group_settings).toEqual({
      request_access_enabled: false,
      project_creation_level: 'maintainer',
      subgroup_creation_level: 'owner',
      share_with_group_lock: true,
      default_branch_protection: 1,
      lfs_enabled: false,
      emails_enabled: false,
      emails_disabled: true,
      mentions_disabled: true,
      require_two_factor_authentication: true,
      two_factor_grace_period: 24,
      auto_devops_enabled: false,
      description: 'set by python-gitlab',
    });
    expect(seen.user_settings).toEqual({
      projects_limit: 3,
      can_create_group: false,
      external: true,
      bio: 'bio',
      location: 'Porto',
      website_url: 'https://example.com',
      pronouns: 'they/them',
      private_profile: true,
      note: 'admin note',
      theme_id: 2,
    });
  });
});
