// Debian's ansible (community.general.gitlab_runner over python-gitlab) registers a project runner with a
// registration token, tunes it and removes it on Runway: apply twice, change twice, remove twice, the
// second run of each reporting no change (issue 24).
import { describe, expect, it } from 'vitest';
import { api, baseUrl, uniq } from '../support/api';
import { hasAnsible, playTask } from '../support/ansible';
import { createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { resetProjectToken, waitForInstanceSettings } from '../api/runners-registration-support';

const play = (args: Record<string, unknown>) => playTask('community.general.gitlab_runner', args);

describe.skipIf(!hasAnsible)('[IAC] ansible community.general.gitlab_runner against Runway', () => {
  it('apply, apply again (no change); change, change again (no change); remove, remove again (no change)', { timeout: 600_000 }, async () => {
    await waitForInstanceSettings();
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    const registration = await resetProjectToken(owner.token, project.id);
    const description = uniq('ansible-runner');
    const base = { api_url: baseUrl(), api_token: owner.token, validate_certs: false, project: project.path_with_namespace, description };
    const first = { ...base, registration_token: registration, tag_list: ['docker'], access_level_on_creation: true, access_level: 'not_protected' };
    const made = await play(first);
    expect(made.failed, JSON.stringify(made.result)).toBe(0);
    expect(made.changed).toBe(1);
    const again = await play(first);
    expect(again.failed, JSON.stringify(again.result)).toBe(0);
    expect(again.changed, JSON.stringify(again.result.msg)).toBe(0);

    const second = {
      ...first,
      active: false,
      locked: true,
      run_untagged: false,
      maximum_timeout: 7200,
      tag_list: ['docker', 'linux'],
      access_level: 'ref_protected',
    };
    expect(await play(second)).toMatchObject({ changed: 1, failed: 0 });
    const twice = await play(second);
    expect(twice.failed, JSON.stringify(twice.result)).toBe(0);
    expect(twice.changed, JSON.stringify(twice.result.msg)).toBe(0);
    // Project runners only: the project also sees every instance runner other test files register meanwhile.
    const listed = await api('GET', `/projects/${project.id}/runners?type=project_type&per_page=100`, { token: owner.token });
    const runner = listed.body.find((r: { description: string }) => r.description === description);
    const shown = await api('GET', `/runners/${runner.id}`, { token: owner.token });
    expect(shown.body).toMatchObject({ paused: true, locked: true, run_untagged: false, maximum_timeout: 7200, access_level: 'ref_protected' });
    expect([...shown.body.tag_list].sort()).toEqual(['docker', 'linux']);

    expect(await play({ ...base, state: 'absent' })).toMatchObject({ changed: 1, failed: 0 });
    expect(await play({ ...base, state: 'absent' })).toMatchObject({ changed: 0, failed: 0 });
    expect((await api('GET', `/runners/${runner.id}`, { token: owner.token })).status).toBe(404);
  });
});
