// The real python-gitlab 3.12 against the running Runway: auth, users, groups, projects, members, pagination.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, uniq } from '../support/api';
import { createUser } from '../support/users';

describe('[NAMESPACES] python-gitlab drives the platform API', () => {
  it('sees users, groups, projects and members as GitLab would serve them, across pages', async () => {
    const user = await createUser();
    const other = await createUser();
    const tag = uniq('py').replace(/-/g, '');
    const run = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python_gitlab_platform.py')], {
      env: { ...process.env, RUNWAY_URL: baseUrl(), RUNWAY_TOKEN: user.token, RUNWAY_MEMBER_ID: String(other.id), RUNWAY_TAG: tag },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!);

    expect(seen.user).toEqual({ id: user.id, username: user.username, type: 'CurrentUser' });
    expect(seen.users).toEqual({ listed: [user.username], member: { id: other.id, username: other.username } });

    const top = `${tag}-top`;
    expect(seen.groups.top).toMatchObject({ full_path: top, visibility: 'private', description: 'made by python-gitlab' });
    expect(seen.groups.sub).toMatchObject({ full_path: `${top}/platform`, parent_id: seen.groups.top.id, full_name: `${tag} Top / Platform` });
    expect(seen.groups.fetched).toEqual({ id: seen.groups.sub.id, name: 'Platform' });
    expect(seen.groups.subgroups).toEqual([`${top}/platform`]);
    // Three groups with per_page=2: python-gitlab followed the Link header to page 2.
    expect(seen.groups.listed).toEqual([top, `${top}/platform`, `${top}/platform/ci`]);

    const paths = [0, 1, 2, 3, 4].map((i) => `${tag}-svc-${i}`);
    expect(seen.projects.created).toEqual(paths.map((p) => `${top}/platform/${p}`));
    expect(seen.projects.get).toMatchObject({
      path_with_namespace: `${top}/platform/${paths[0]}`,
      namespace: `${top}/platform`,
      default_branch: 'main',
      permissions: { project_access: null, group_access: { access_level: 50, notification_level: 3 } },
    });
    // Newest first (GitLab's default order), all five across three pages of two.
    expect(seen.projects.all).toEqual([...paths].reverse());
    expect(seen.projects.iterated).toEqual([...paths].reverse());
    expect(seen.projects.iterator_total).toBe(5);
    expect(seen.projects.iterator_total_pages).toBe(3);
    expect(seen.projects.first_page).toEqual([paths[4], paths[3]]);

    expect(seen.members.project).toEqual([[other.username, 30]]);
    expect(seen.members.project_all).toEqual(
      [
        [other.username, 30],
        [user.username, 50],
      ].sort(),
    );
    expect(seen.members.group).toEqual(
      [
        [other.username, 20],
        [user.username, 50],
      ].sort(),
    );
    expect(seen.members.one).toBe(30);
    expect(seen.members.duplicate).toEqual({ code: 409, message: 'Member already exists' });
    expect(seen.missing).toEqual({ code: 404, message: '404 Project Not Found' });
  });
});
