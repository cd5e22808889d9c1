// Issue 24's rule for the runner entity (GET /runners/:id) and personal access tokens: each key is set
// through GitLab's create or update parameters and read back as written, or listed read-only with its
// reason; unknown parameters are ignored as GitLab ignores them.
import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { flip, to, walkSettable, type RoundTripCase } from '../support/round-trip';
import { createUser } from '../support/users';
import { createRunner } from './runners-admin-support';

function runnerCase(id: number): RoundTripCase {
  return {
    entity: 'runner',
    read: async () => {
      const res = await api('GET', `/runners/${id}`, { token: rootToken() });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    update: (params) => api('PUT', `/runners/${id}`, { token: rootToken(), json: params }),
    settable: {
      description: { next: (v) => `${v} changed` },
      active: { next: flip, couples: ['paused', 'status'] },
      paused: { next: flip, couples: ['active', 'status'] },
      tag_list: { next: to(['docker', 'linux']) },
      run_untagged: { next: flip },
      locked: { next: flip },
      maximum_timeout: { next: to(7200) },
      access_level: { next: to('ref_protected') },
      maintenance_note: { next: to('Disk replaced on Monday') },
    },
    readOnly: {
      id: 'assigned by the server',
      ip_address: 'reported by the runner agent when it polls',
      is_shared: 'derived from runner_type',
      runner_type: 'chosen at creation (POST /user/runners) and never changed by GitLab',
      name: "reported by the runner agent's configuration",
      online: 'derived from contacted_at',
      created_by: 'the creating user',
      created_at: 'set by the server',
      status: 'derived from paused and contacted_at',
      job_execution_status: 'derived from running jobs',
      version: 'reported by the runner agent',
      revision: 'reported by the runner agent',
      platform: 'reported by the runner agent',
      architecture: 'reported by the runner agent',
      contacted_at: 'set when the runner agent polls',
      upgrade_status: "derived from the managers' reported versions and the release list (Runway extension)",
      projects: 'assigned by POST and DELETE /projects/:id/runners',
      groups: 'the owning group, chosen at creation',
    },
  };
}

describe('[IAC] the round-trip rule: runners', () => {
  it('every reported key of GET /runners/:id is settable through PUT /runners/:id and read back, or read-only with a reason', async () => {
    const id = await createRunner('instance_type');
    const walked = await walkSettable(runnerCase(id));
    expect(walked).toEqual(['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'maximum_timeout', 'access_level', 'maintenance_note']);
  });

  it('an update with only unknown parameters answers GitLab 400 naming its parameters; with a known one they are ignored', async () => {
    const id = await createRunner('instance_type');
    const only = await api('PUT', `/runners/${id}`, { token: rootToken(), json: { no_such_setting: 1 } });
    expect(only).toMatchObject({
      status: 400,
      body: {
        error:
          'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
      },
    });
    const mixed = await api('PUT', `/runners/${id}`, { token: rootToken(), json: { locked: true, no_such_setting: 1 } });
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body.locked).toBe(true);
    expect(mixed.body).not.toHaveProperty('no_such_setting');
  });
});

describe('[IAC] the round-trip rule: personal access tokens', () => {
  it('every reported key is set by the create parameters and read back (GET /personal_access_tokens/:id), or read-only with a reason', async () => {
    const user = await createUser();
    const create = async (params: Record<string, unknown>) => {
      const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        token: rootToken(),
        json: { name: uniq('tok'), scopes: ['read_api'], ...params },
      });
      expect(res.status, res.text).toBe(201);
      const shown = await api('GET', `/personal_access_tokens/${res.body.id}`, { token: rootToken() });
      expect(shown.status, shown.text).toBe(200);
      return shown.body;
    };
    const baseline = await create({});
    const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
    const c: RoundTripCase = {
      entity: 'personal access token',
      read: async () => baseline,
      create,
      settable: {
        name: { next: to('deploy-bot'), createOnly: true },
        description: { next: to('Used by the deploy pipeline'), createOnly: true },
        scopes: { next: to(['api', 'read_registry']), createOnly: true },
        expires_at: { next: to(nextYear), createOnly: true },
      },
      readOnly: {
        id: 'assigned by the server',
        active: 'derived from revoked and expires_at',
        revoked: 'set by DELETE /personal_access_tokens/:id (a revocation, not a parameter)',
        expired: 'derived from expires_at',
        granular: 'Runway issues no fine-grained tokens: false, as GitLab for a legacy token',
        created_at: 'set by the server',
        user_id: "the path's user",
        last_used_at: 'set when the token is used',
        last_used_ips: 'Runway records no addresses: empty',
      },
    };
    expect(await walkSettable(c)).toEqual(['name', 'description', 'scopes', 'expires_at']);
  });

  it('unknown create parameters are ignored', async () => {
    const user = await createUser();
    const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      token: rootToken(),
      json: { name: uniq('tok'), scopes: ['api'], no_such_setting: 'x' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).not.toHaveProperty('no_such_setting');
  });
});
