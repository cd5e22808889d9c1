// The gitlab-runner agent's conversation, request for request as gitlab-runner 18.x sends it
// (network/gitlab.go, common/network.go): JSON bodies, RUNNER-TOKEN header, the full `info` object with
// every feature boolean, X-Request-Id, and the exact status codes the agent acts on.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { waitForInstanceSettings } from '../api/runners-registration-support';

const FEATURES = [
  'variables',
  'image',
  'services',
  'artifacts',
  'cache',
  'fallback_cache_keys',
  'shared',
  'upload_multiple_artifacts',
  'upload_raw_artifacts',
  'session',
  'terminal',
  'refspecs',
  'masking',
  'proxy',
  'raw_variables',
  'artifacts_exclude',
  'multi_build_steps',
  'trace_reset',
  'trace_checksum',
  'trace_size',
  'vault_secrets',
  'cancelable',
  'return_exit_code',
  'service_variables',
  'service_multiple_aliases',
  'image_executor_opts',
  'service_executor_opts',
  'cancel_gracefully',
  'native_steps_integration',
  'two_phase_job_commit',
  'job_inputs',
];

const info = (name: string) => ({
  name,
  version: '18.4.0',
  revision: '4d7093e1',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'docker',
  shell: 'bash',
  features: Object.fromEntries(FEATURES.map((f, i) => [f, i % 3 !== 0])),
  config: { gpus: '' },
});

interface AgentResponse {
  status: number;
  headers: Headers;
  body: any;
  requestId: string;
}

/** One call as client.doJSON makes it. `token` goes into the RUNNER-TOKEN header unless `header: false`. */
async function agent(
  method: string,
  path: string,
  body: Record<string, unknown> | null,
  opts: { token?: string; header?: boolean } = {},
): Promise<AgentResponse> {
  // Another file may be flipping instance registration settings for a moment (see the support module).
  await waitForInstanceSettings();
  const requestId = randomBytes(16).toString('hex');
  const headers: Record<string, string> = {
    'User-Agent': 'gitlab-runner 18.4.0 (18-4-stable; go1.24.4; linux/amd64)',
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Request-Id': requestId,
  };
  if (opts.token && opts.header !== false) headers['RUNNER-TOKEN'] = opts.token;
  const res = await fetch(`${baseUrl()}/api/v4/${path}`, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
  const text = await res.text();
  // The agent decodes a body only for the expected status and an application/json media type.
  const isJson = (res.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/json';
  return { status: res.status, headers: res.headers, body: isJson && text ? JSON.parse(text) : undefined, requestId };
}

const RFC3339_OR_NULL = (v: unknown) => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /T.*(Z|[+-]\d\d:\d\d)$/.test(v));

let owner: TestUser;
let project: any;

beforeAll(async () => {
  owner = await createUser();
  const group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
});

describe('[RUNNERS] gitlab-runner agent conversation', () => {
  it('register -r, verify, run (jobs/request), reset-token, unregister', { timeout: 90_000 }, async () => {
    // Registration tokens are stored as digests only: a reset is the one way to see one.
    await waitForInstanceSettings();
    const reset = await api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: owner.token });
    expect(reset.status).toBe(201);
    const registrationToken: string = reset.body.token;

    // gitlab-runner register --registration-token …
    const reg = await agent(
      'POST',
      'runners',
      {
        description: 'agent-runner',
        tag_list: 'docker,linux',
        run_untagged: true,
        locked: true,
        paused: false,
        maximum_timeout: 3600,
        info: info('agent-runner'),
        token: registrationToken,
      },
      { token: registrationToken },
    );
    expect(reg.status).toBe(201);
    expect(typeof reg.body.id).toBe('number');
    expect(reg.body.token).toMatch(/^t3_[A-Za-z0-9_-]{20}$/);
    expect(RFC3339_OR_NULL(reg.body.token_expires_at)).toBe(true);
    expect(reg.headers.get('x-request-id')).toBe(reg.requestId);
    const runnerId: number = reg.body.id;
    let token: string = reg.body.token;
    const sid = `s_${randomBytes(6).toString('hex')}`;

    // gitlab-runner verify
    const verify = await agent('POST', 'runners/verify', { token, system_id: sid }, { token });
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ id: runnerId, token, token_expires_at: null });

    // gitlab-runner run: the poll.
    const poll = await agent('POST', 'jobs/request', { info: info('agent-runner'), token, system_id: sid }, { token });
    expect(poll.status).toBe(204);
    const lastUpdate = poll.headers.get('x-gitlab-last-update');
    expect(lastUpdate).toBeTruthy();
    // A poll that echoes last_update is held (long polling, 50 s by default, as shipped) until the runner
    // changes: a change made meanwhile answers it at once, with the new value.
    const heldSince = Date.now();
    const held = agent('POST', 'jobs/request', { info: info('agent-runner'), token, system_id: sid, last_update: lastUpdate }, { token });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await api('PUT', `/runners/${runnerId}`, { token: owner.token, json: { maximum_timeout: 7200 } })).status).toBe(200);
    const again = await held;
    expect(again.status).toBe(204);
    expect(Date.now() - heldSince).toBeGreaterThanOrEqual(900);
    expect(again.headers.get('x-gitlab-last-update')).toBeTruthy();
    expect(again.headers.get('x-gitlab-last-update')).not.toBe(lastUpdate);

    // The runner is now online for its owner.
    const details = await api('GET', `/runners/${runnerId}`, { token: owner.token });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      id: runnerId,
      status: 'online',
      online: true,
      name: 'agent-runner',
      version: '18.4.0',
      platform: 'linux',
      architecture: 'amd64',
    });
    expect(details.body.tag_list).toEqual(['docker', 'linux']);

    // gitlab-runner reset-token: the token only in the body, no RUNNER-TOKEN header.
    const rotated = await agent('POST', 'runners/reset_authentication_token', { token }, { token, header: false });
    expect(rotated.status).toBe(201);
    expect(rotated.body.token).toMatch(/^t3_/);
    expect(RFC3339_OR_NULL(rotated.body.token_expires_at)).toBe(true);
    const old = await agent('POST', 'runners/verify', { token, system_id: sid }, { token });
    expect(old.status).toBe(403);
    token = rotated.body.token;
    expect((await agent('POST', 'runners/verify', { token, system_id: sid }, { token })).status).toBe(200);

    // gitlab-runner unregister
    const unregister = await agent('DELETE', 'runners', { token }, { token });
    expect(unregister.status).toBe(204);
    expect((await agent('POST', 'runners/verify', { token, system_id: sid }, { token })).status).toBe(403);
    expect((await agent('POST', 'jobs/request', { info: info('agent-runner'), token, system_id: sid }, { token })).status).toBe(403);
  });

  it('glrt- workflow: POST /user/runners, register = verify with system_id, run, unregister the manager', async () => {
    const created = await api('POST', '/user/runners', {
      token: owner.token,
      json: { runner_type: 'project_type', project_id: project.id, description: 'glrt', tag_list: ['docker'] },
    });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect(token.startsWith('glrt-')).toBe(true);
    const sid = `s_${randomBytes(6).toString('hex')}`;

    const verify = await agent('POST', 'runners/verify', { info: info('glrt-runner'), token, system_id: sid }, { token });
    expect(verify.status).toBe(200);
    expect(verify.body.id).toBe(created.body.id);
    expect(verify.body.id).not.toBe(0);

    const poll = await agent('POST', 'jobs/request', { info: info('glrt-runner'), token, system_id: sid }, { token });
    expect(poll.status).toBe(204);
    const managers = await api('GET', `/runners/${created.body.id}/managers`, { token: owner.token });
    expect(managers.status).toBe(200);
    expect(managers.body.map((m: any) => m.system_id)).toEqual([sid]);

    // gitlab-runner unregister with a glrt- token
    const del = await agent('DELETE', 'runners/managers', { token, system_id: sid }, { token });
    expect(del.status).toBe(204);
    const after = await api('GET', `/runners/${created.body.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ contacted_at: null, status: 'never_contacted' });
    const missing = await agent('DELETE', 'runners/managers', { token, system_id: sid }, { token });
    expect(missing.status).toBe(404);
  });

  it('reset-token --pat posts the literal null with a personal access token', async () => {
    const created = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: project.id } });
    const res = await fetch(`${baseUrl()}/api/v4/runners/${created.body.id}/reset_authentication_token`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': owner.token, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: 'null',
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.token).toMatch(/^glrt-t3_/);
    expect(body.token_expires_at).toBeNull();
  });
});
