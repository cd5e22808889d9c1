import { describe, expect, it } from 'vitest';
import { acceptedScopes, ADMIN_ONLY_SCOPES, ALL_SCOPES, registeredScopes } from './scopes';

describe('[AUTH] scopes', () => {
  it('accepts api always and read_api on reads only', () => {
    expect(acceptedScopes('GET')).toEqual(['api', 'read_api']);
    expect(acceptedScopes('HEAD')).toEqual(['api', 'read_api']);
    expect(acceptedScopes('POST')).toEqual(['api']);
    expect(acceptedScopes('DELETE')).toEqual(['api']);
  });

  it("puts the endpoint's own scopes first, read-only ones on reads only", () => {
    const extras = [{ scope: 'read_user', readOnly: true as const }, 'manage_runner'];
    expect(acceptedScopes('GET', extras)).toEqual(['read_user', 'manage_runner', 'api', 'read_api']);
    expect(acceptedScopes('PUT', extras)).toEqual(['manage_runner', 'api']);
  });

  it('lists every registered scope in insufficient_scope answers, whatever the method', () => {
    expect(registeredScopes()).toEqual(['api', 'read_api']);
    expect(registeredScopes(['manage_runner'])).toEqual(['manage_runner', 'api', 'read_api']);
    expect(registeredScopes([{ scope: 'read_user', readOnly: true }])).toEqual(['read_user', 'api', 'read_api']);
  });

  it("knows GitLab's scope names and its admin-only scopes", () => {
    for (const s of ['api', 'read_api', 'read_user', 'create_runner', 'manage_runner', 'k8s_proxy', 'sudo', 'read_repository']) {
      expect(ALL_SCOPES).toContain(s);
    }
    expect(ADMIN_ONLY_SCOPES).toEqual(['sudo', 'admin_mode', 'read_service_ping']);
  });
});
