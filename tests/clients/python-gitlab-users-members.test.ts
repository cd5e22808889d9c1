// The real python-gitlab creates, updates and deletes users and members against the running Runway.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken, uniq } from '../support/api';

describe('[USERS] python-gitlab: users and members, create-update-delete', () => {
  it("saves, updates and deletes users and group/project members; GitLab's refusals arrive as GitlabErrors", () => {
    const tag = uniq('py').replace(/-/g, '');
    const run = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python_gitlab_users_members.py')], {
      env: { ...process.env, RUNWAY_URL: baseUrl(), RUNWAY_ADMIN_TOKEN: rootToken(), RUNWAY_TAG: tag },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!);

    expect(seen.user).toEqual({ name: 'Py User Renamed', bio: 'set by python-gitlab', username: `${tag}_u` });
    expect(seen.user_conflict).toEqual({ code: 409, message: 'Email has already been taken' });
    expect(seen.group_member).toEqual({ access_level: 40, expires_at: '2999-01-01' });
    expect(seen.group_member_updated).toBe(20);
    expect(seen.memberships).toEqual([['Namespace', 20]]);
    expect(seen.last_owner_demote).toEqual({ code: 403, message: '403 Forbidden' });
    expect(seen.last_owner_delete).toEqual({ code: 403, message: '403 Forbidden' });
    expect(seen.group_members_after).toHaveLength(1);
    expect(seen.deleted_member).toEqual({ code: 404, message: '404 Not found' });
    expect(seen.project_member).toBe(30);
    expect(seen.project_members_after).toEqual([]);
    expect(seen.namespaces).toEqual([`${tag}-group`]);
    expect(seen.namespace).toBe('group');
    expect(seen.user_projects).toEqual([`${tag}-personal`]);
    expect(seen.user_deleted).toEqual({ code: 404, message: '404 User Not Found' });
    expect(seen.user_deleted_again).toEqual({ code: 404, message: '404 User Not Found' });
    expect(seen.sole_owner).toEqual({ code: 409, message: 'User cannot be removed while is the sole-owner of a group' });
    expect(seen.solo_group_after_hard_delete).toEqual({ code: 404, message: '404 Group Not Found' });
  });
});
