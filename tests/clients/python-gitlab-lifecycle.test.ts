// The real python-gitlab creates, renames, updates and deletes a group and a project on Runway.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, uniq } from '../support/api';
import { createUser } from '../support/users';

describe('[NAMESPACES] python-gitlab: group and project create-update-delete', () => {
  it('saves renames and settings, lists groups, deletes both', async () => {
    const user = await createUser();
    const tag = uniq('pylc');
    const run = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python_gitlab_lifecycle.py')], {
      env: { ...process.env, RUNWAY_URL: baseUrl(), RUNWAY_TOKEN: user.token, RUNWAY_TAG: tag },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(seen.group).toEqual({ name: `${tag} Renamed`, full_path: `${tag}-renamed`, description: 'renamed by python-gitlab' });
    expect(seen.project).toEqual({ description: 'updated by python-gitlab', shared_runners_enabled: false, visibility: 'internal' });
    expect(seen.project_groups).toEqual([`${tag}-renamed`]);
    expect(seen.bad_visibility).toEqual({ code: 400, message: { visibility_level: ['public is not allowed in a internal group.'] } });
    expect(seen.descendants).toEqual([]);
    expect(seen.project_gone).toEqual({ code: 404, message: '404 Project Not Found' });
    expect(seen.group_gone).toEqual({ code: 404, message: '404 Group Not Found' });
  });
});
