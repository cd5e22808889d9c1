// @gitbeaker/rest 43.8 against Runway: Users.createCIRunner (POST /user/runners), Runners.register
// (POST /runners), Runners.verify (POST /runners/verify) and Runners.remove({ token }) (DELETE /runners).
import { Gitlab } from '@gitbeaker/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { waitForInstanceSettings } from '../api/runners-registration-support';

let owner: TestUser;
let project: any;
let gl: InstanceType<typeof Gitlab>;

beforeAll(async () => {
  owner = await createUser();
  const group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
  gl = new Gitlab({ host: baseUrl(), token: owner.token });
});

describe('[RUNNERS] gitbeaker runner registration', () => {
  it('Users.createCIRunner creates a project runner with a glrt- token', async () => {
    const runner = await gl.Users.createCIRunner('project_type', { projectId: project.id, description: 'from gitbeaker', tagList: ['a', 'b'], paused: true });
    expect(runner.id).toBeGreaterThan(0);
    expect(runner.token).toMatch(/^glrt-t3_/);
    expect(runner).toHaveProperty('token_expires_at', null);
    const v = (await gl.Runners.verify({ token: runner.token, systemId: 's_0123456789ab' } as never)) as unknown as { id: number };
    expect(v.id).toBe(runner.id);
  });

  it('Users.createCIRunner surfaces GitLab errors (403 for a non-admin instance runner)', async () => {
    await expect(gl.Users.createCIRunner('instance_type')).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });

  it('Runners.register with a registration token, verify, then remove by token', async () => {
    await waitForInstanceSettings();
    const reset = await api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: owner.token });
    const registered = await gl.Runners.register(reset.body.token, {
      description: 'gitbeaker-registered',
      tagList: ['x'],
      runUntagged: false,
      maximumTimeout: 3600,
      info: { name: 'gb' },
    });
    expect(registered.id).toBeGreaterThan(0);
    expect(registered.token).toMatch(/^t3_/);
    const v = (await gl.Runners.verify({ token: registered.token } as never)) as unknown as { id: number; token: string };
    expect(v).toEqual({ id: registered.id, token: registered.token, token_expires_at: null });
    await gl.Runners.remove({ token: registered.token });
    const after = await api('POST', '/runners/verify', { json: { token: registered.token } });
    expect(after.status).toBe(403);
  });

  it('Runners.register with a bad token rejects with 403', async () => {
    await waitForInstanceSettings();
    await expect(gl.Runners.register('GR1348941bogusbogusbogusbogus0')).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});
