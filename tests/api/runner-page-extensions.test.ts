// The Runway extensions the runner page reads: GET /runners/:id/projects?search= (name or full path, counted
// and paged like the unfiltered list) and, with ?with_permissions=true, the owner project and token expiry.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createProject } from '../support/namespaces';
import { createRunner, dbQuery, linkProject } from './runners-admin-support';

describe('[RUNNERS] runner page extensions', () => {
  let owner: any;
  let alpha: any;
  let beta: any;
  let id: number;

  beforeAll(async () => {
    const root = rootToken();
    const tag = uniq('ext');
    owner = await createProject(root, { path: `${tag}-owner` });
    alpha = await createProject(root, { path: `${tag}-alpha` });
    beta = await createProject(root, { path: `${tag}-beta` });
    id = await createRunner('project_type', { projectId: owner.id });
    await linkProject(id, alpha.id);
    await linkProject(id, beta.id);
  });

  it('GET /runners/:id/projects?search= matches name or full path, with X-Total for the match', async () => {
    const byName = await api('GET', `/runners/${id}/projects`, { token: rootToken(), query: { search: alpha.name.toUpperCase() } });
    expect(byName.status).toBe(200);
    expect(byName.body.map((p: any) => p.id)).toEqual([alpha.id]);
    expect(byName.headers.get('x-total')).toBe('1');
    const byPath = await api('GET', `/runners/${id}/projects`, { token: rootToken(), query: { search: owner.path_with_namespace } });
    expect(byPath.body.map((p: any) => p.id)).toEqual([owner.id]);
    // LIKE wildcards are literal: "%" matches nothing here.
    const wildcard = await api('GET', `/runners/${id}/projects`, { token: rootToken(), query: { search: '%' } });
    expect(wildcard.body).toEqual([]);
    const paged = await api('GET', `/runners/${id}/projects`, {
      token: rootToken(),
      query: { search: beta.path_with_namespace.split('-beta')[0], per_page: 2 },
    });
    expect(paged.headers.get('x-total')).toBe('3');
    expect(paged.body.map((p: any) => p.id)).toEqual([beta.id, alpha.id]);
  });

  it('with_permissions adds the owner project (the first assignment) and the token expiry', async () => {
    const res = await api('GET', `/runners/${id}`, { token: rootToken(), query: { with_permissions: true } });
    expect(res.body).toMatchObject({ _runway_owner_project_id: owner.id, _runway_token_expires_at: null });
    const expires = new Date(Date.now() + 86_400_000);
    await dbQuery('UPDATE ci_runners SET token_expires_at = $1 WHERE id = $2', [expires, id]);
    const later = await api('GET', `/runners/${id}`, { token: rootToken(), query: { with_permissions: true } });
    expect(later.body._runway_token_expires_at).toBe(expires.toISOString());
    const instance = await createRunner('instance_type');
    expect((await api('GET', `/runners/${instance}`, { token: rootToken(), query: { with_permissions: true } })).body._runway_owner_project_id).toBeNull();
    // Without the flag the body stays GitLab's.
    expect(Object.keys((await api('GET', `/runners/${id}`, { token: rootToken() })).body).filter((k) => k.startsWith('_runway'))).toEqual([]);
  });
});
