// Personal access token scopes, as GitLab names them (lib/gitlab/auth.rb).
export const API_SCOPES = ['api', 'read_api', 'read_user', 'create_runner', 'manage_runner', 'k8s_proxy', 'self_rotate'] as const;
export const REPOSITORY_SCOPES = ['read_repository', 'write_repository'] as const;
export const REGISTRY_SCOPES = ['read_registry', 'write_registry'] as const;
export const ADMIN_SCOPES = ['sudo', 'admin_mode', 'read_service_ping'] as const;
export const OPENID_SCOPES = ['openid', 'profile', 'email'] as const;

export const ALL_SCOPES: readonly string[] = [...API_SCOPES, ...REPOSITORY_SCOPES, ...REGISTRY_SCOPES, ...ADMIN_SCOPES, ...OPENID_SCOPES, 'ai_features'];

/** Admin-only scopes: GitLab refuses them on tokens of non-admins. */
export const ADMIN_ONLY_SCOPES: readonly string[] = ['sudo', 'admin_mode', 'read_service_ping'];

/**
 * The scopes an endpoint registers, as GitLab lists them in an insufficient_scope answer: the endpoint's
 * own first, then `api read_api`, whatever the request's method (api_guard's scopes_registered_for_endpoint
 * ignores the `if:` conditions).
 */
export function registeredScopes(extras: ReadonlyArray<string | { scope: string; readOnly: true }> = []): string[] {
  return [...new Set([...extras.map((e) => (typeof e === 'string' ? e : e.scope)), 'api', 'read_api'])];
}

/**
 * The scopes an endpoint accepts: `api` always, `read_api` for reads, plus the endpoint's own extras
 * (each extra may be limited to reads). A token passes if it holds any of them.
 */
export function acceptedScopes(method: string, extras: ReadonlyArray<string | { scope: string; readOnly: true }> = []): string[] {
  const read = method === 'GET' || method === 'HEAD';
  const own = extras.flatMap((e) => (typeof e === 'string' ? [e] : read ? [e.scope] : []));
  return [...new Set([...own, 'api', ...(read ? ['read_api'] : [])])];
}
