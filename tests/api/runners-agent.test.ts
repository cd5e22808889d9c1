import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { dbQuery, managerRows, registered, resetProjectToken, runnerRow, systemId } from './runners-registration-support';
import { sleep } from '../support/dir-lock';

let owner: TestUser;
let project: any;
let regToken: string;

beforeAll(async () => {
  owner = await createUser();
  const group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
  regToken = await resetProjectToken(owner.token, project.id);
});

const info = { name: 'agent', version: '18.2.0', revision: 'abc123', platform: 'linux', architecture: 'amd64', executor: 'docker', features: { shared: true } };

describe('[RUNNERS] POST /jobs/request', () => {
  it('answers 204 with X-GitLab-Last-Update, finishes creation, records the manager and its info', async () => {
    const r = await registered(regToken);
    const sid = systemId();
    const res = await api('POST', '/jobs/request', { json: { token: r.token, system_id: sid, info } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('x-gitlab-last-update')).toMatch(/^[0-9a-f]+$/);
    const row = await runnerRow(r.id);
    expect(row.creation_state).toBe('finished');
    expect(row.contacted_at).not.toBeNull();
    const [m] = await managerRows(r.id);
    expect(m).toMatchObject({
      system_xid: sid,
      version: '18.2.0',
      revision: 'abc123',
      platform: 'linux',
      architecture: 'amd64',
      executor_type: 'docker',
      creation_state: 'finished',
    });
    expect(m.contacted_at).not.toBeNull();
    expect(m.ip_address).toBeTruthy();
  });

  it('reads the token from the RUNNER-TOKEN header; 403 for bad tokens; 400 with none', async () => {
    const r = await registered(regToken);
    const viaHeader = await api('POST', '/jobs/request', { json: { info }, headers: { 'RUNNER-TOKEN': r.token } });
    expect(viaHeader.status).toBe(204);
    expect((await managerRows(r.id)).map((m) => m.system_xid)).toEqual(['<legacy>']);
    const bad = await api('POST', '/jobs/request', { json: { token: 'bad' } });
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ message: '403 Forbidden' });
    const badHeader = await api('POST', '/jobs/request', { json: {}, headers: { 'RUNNER-TOKEN': 'bad' } });
    expect(badHeader.status).toBe(403);
    const none = await api('POST', '/jobs/request', { json: {} });
    expect(none.status).toBe(400);
  });

  it('reads no user credentials: a stray or invalid PRIVATE-TOKEN changes nothing', async () => {
    const r = await registered(regToken);
    const stray = { 'PRIVATE-TOKEN': 'glpat-not-a-real-token' };
    expect((await api('POST', '/jobs/request', { json: { token: r.token }, headers: stray })).status).toBe(204);
    expect((await api('POST', '/runners/verify', { json: { token: r.token }, headers: stray })).status).toBe(200);
  });

  it('a paused runner also gets 204', async () => {
    const r = await registered(regToken, { paused: true });
    const res = await api('POST', '/jobs/request', { json: { token: r.token, info } });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-gitlab-last-update')).toBeTruthy();
  });

  it('leaves a repeat contact to the heartbeat flush, but records new info at once', async () => {
    const r = await registered(regToken);
    const sid = systemId();
    await api('POST', '/jobs/request', { json: { token: r.token, system_id: sid, info } });
    // The first poll's contact is also buffered: past the next flush (5 s by default) nothing is pending.
    await sleep(6_000);
    const recent = '2000-01-01T00:00:00.000Z';
    // A contact 30 s ago: the poll itself does not rewrite it (the next flush will).
    await dbQuery("UPDATE ci_runners SET contacted_at = now() - interval '30 seconds' WHERE id = $1", [r.id]);
    await dbQuery("UPDATE ci_runner_machines SET contacted_at = now() - interval '30 seconds' WHERE runner_id = $1", [r.id]);
    const before = await runnerRow(r.id);
    const [mBefore] = await managerRows(r.id);
    await api('POST', '/jobs/request', { json: { token: r.token, system_id: sid, info } });
    expect((await runnerRow(r.id)).contacted_at.getTime()).toBe(before.contacted_at.getTime());
    expect((await managerRows(r.id))[0].contacted_at.getTime()).toBe(mBefore.contacted_at.getTime());
    // New version: recorded immediately.
    await api('POST', '/jobs/request', { json: { token: r.token, system_id: sid, info: { ...info, version: '18.3.0' } } });
    expect((await managerRows(r.id))[0].version).toBe('18.3.0');
    // A contact 2 minutes ago: rewritten, by the next heartbeat flush (a repeat contact is deferred, as
    // GitLab defers it; RUNWAY_HEARTBEAT_FLUSH_SECONDS, 5 s by default).
    await dbQuery("UPDATE ci_runners SET contacted_at = now() - interval '2 minutes' WHERE id = $1", [r.id]);
    const stale = await runnerRow(r.id);
    await api('POST', '/jobs/request', { json: { token: r.token, system_id: sid } });
    const deadline = Date.now() + 8_000;
    while ((await runnerRow(r.id)).contacted_at.getTime() <= stale.contacted_at.getTime() && Date.now() < deadline) await sleep(100);
    expect((await runnerRow(r.id)).contacted_at.getTime()).toBeGreaterThan(stale.contacted_at.getTime());
    void recent;
  });

  it('concurrent first polls of one manager create it once', async () => {
    const r = await registered(regToken);
    const sid = systemId();
    const results = await Promise.all([1, 2, 3, 4].map(() => api('POST', '/jobs/request', { json: { token: r.token, system_id: sid, info } })));
    expect(results.map((x) => x.status)).toEqual([204, 204, 204, 204]);
    expect(await managerRows(r.id)).toHaveLength(1);
  });
});

describe('[RUNNERS] a first contact is seen at once under the shipped heartbeat flush (issue 30)', () => {
  it('after verify with a system_id: online with contacted_at, the list filters agree, the manager is listed and removable', async () => {
    const created = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: project.id } });
    expect(created.status).toBe(201);
    const { id, token } = created.body;
    const sid = systemId();
    const verified = await api('POST', '/runners/verify', { json: { token, system_id: sid, info: { version: '18.4.1', platform: 'linux' } } });
    expect(verified.status).toBe(200);
    // Read right after the answer, with no wait for a flush.
    const shown = await api('GET', `/runners/${id}`, { token: owner.token });
    expect(shown.body).toMatchObject({ status: 'online', online: true });
    expect(shown.body.contacted_at).toBeTruthy();
    const listed = async (query: Record<string, string>) =>
      ((await api('GET', `/projects/${project.id}/runners`, { token: owner.token, query: { per_page: '100', ...query } })).body as { id: number }[]).map(
        (r) => r.id,
      );
    expect(await listed({ status: 'online' })).toContain(id);
    expect(await listed({ status: 'never_contacted' })).not.toContain(id);
    expect(await listed({ version_prefix: '18.4' })).toContain(id);
    const managers = await api('GET', `/runners/${id}/managers`, { token: owner.token });
    expect(managers.status).toBe(200);
    expect(managers.body).toMatchObject([{ system_id: sid, version: '18.4.1', platform: 'linux' }]);
    // The agent's own unregister of that manager finds it.
    expect((await api('DELETE', '/runners/managers', { json: { token, system_id: sid } })).status).toBe(204);
    expect(await managerRows(id)).toHaveLength(0);
    // Polling again with that system_id brings the manager back at once (GitLab's ensure_manager).
    expect((await api('POST', '/jobs/request', { json: { token, system_id: sid } })).status).toBe(204);
    expect((await managerRows(id)).map((m) => m.system_xid)).toEqual([sid]);
    expect((await runnerRow(id)).contacted_at).not.toBeNull();
  });
});

describe('[RUNNERS] DELETE /runners (unregister by token)', () => {
  it('deletes the runner: 204 with the token in the body or the query; then 403', async () => {
    const a = await registered(regToken);
    const res = await api('DELETE', '/runners', { json: { token: a.token } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await runnerRow(a.id)).toBeUndefined();
    expect((await api('DELETE', '/runners', { json: { token: a.token } })).status).toBe(403);
    const b = await registered(regToken);
    expect((await api('DELETE', '/runners', { query: { token: b.token } })).status).toBe(204);
    expect(await runnerRow(b.id)).toBeUndefined();
  });

  it('honours If-Unmodified-Since: 412 when the runner changed after it', async () => {
    const r = await registered(regToken);
    const past = new Date(Date.now() - 3600_000).toUTCString();
    const res = await api('DELETE', '/runners', { json: { token: r.token }, headers: { 'If-Unmodified-Since': past } });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: '412 Precondition Failed' });
    expect(await runnerRow(r.id)).toBeDefined();
    const future = new Date(Date.now() + 3600_000).toUTCString();
    expect((await api('DELETE', '/runners', { json: { token: r.token }, headers: { 'If-Unmodified-Since': future } })).status).toBe(204);
  });

  it('answers 403 {"message":"403 Forbidden"} for an unknown token and 400 without one', async () => {
    const bad = await api('DELETE', '/runners', { json: { token: 'unknown' } });
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ message: '403 Forbidden' });
    const none = await api('DELETE', '/runners', { json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'token is missing' });
  });
});

describe('[RUNNERS] DELETE /runners/managers', () => {
  it('removes one manager (204); removing the last one clears contacted_at; unknown system_id 404', async () => {
    const created = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: project.id } });
    const token = created.body.token;
    const [s1, s2] = [systemId(), systemId()];
    await api('POST', '/runners/verify', { json: { token, system_id: s1 } });
    await api('POST', '/runners/verify', { json: { token, system_id: s2 } });
    expect(await managerRows(created.body.id)).toHaveLength(2);
    const del1 = await api('DELETE', '/runners/managers', { json: { token, system_id: s1 } });
    expect(del1.status).toBe(204);
    expect((await runnerRow(created.body.id)).contacted_at).not.toBeNull();
    const missing = await api('DELETE', '/runners/managers', { json: { token, system_id: s1 } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Runner manager not found Not Found' });
    expect((await api('DELETE', '/runners/managers', { json: { token, system_id: s2 } })).status).toBe(204);
    expect(await managerRows(created.body.id)).toHaveLength(0);
    expect((await runnerRow(created.body.id)).contacted_at).toBeNull();
    // The runner itself stays.
    expect((await api('POST', '/runners/verify', { json: { token, system_id: s1 } })).status).toBe(200);
  });

  it('answers 403 for a bad token and 400 for missing parameters', async () => {
    const bad = await api('DELETE', '/runners/managers', { json: { token: 'bad', system_id: 's_000000000000' } });
    expect(bad.status).toBe(403);
    const none = await api('DELETE', '/runners/managers', { json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'token is missing, system_id is missing' });
  });
});
