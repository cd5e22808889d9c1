// Groups, projects and memberships for API tests, made through the API itself (any test may use these).
import { expect } from 'vitest';
import { api, uniq } from './api';

type Visibility = 'private' | 'internal' | 'public';

async function ok(res: Promise<{ status: number; body: any; text: string }>, expected: number, what: string) {
  const r = await res;
  expect(r.status, `${what}: ${r.text}`).toBe(expected);
  return r.body;
}

/** POST /groups; `parentId` makes a subgroup. Returns the Group JSON (id, full_path, ...). */
export function createGroup(token: string, opts: { path?: string; name?: string; parentId?: number; visibility?: Visibility; description?: string } = {}) {
  const path = opts.path ?? uniq('group');
  const json: Record<string, unknown> = { name: opts.name ?? path, path, visibility: opts.visibility ?? 'private' };
  if (opts.parentId !== undefined) json.parent_id = opts.parentId;
  if (opts.description !== undefined) json.description = opts.description;
  return ok(api('POST', '/groups', { token, json }), 201, 'createGroup');
}

/** POST /projects (in the caller's namespace unless `namespaceId`). Returns the Project JSON. */
export function createProject(
  token: string,
  opts: { path?: string; name?: string; namespaceId?: number; visibility?: Visibility; description?: string; defaultBranch?: string } = {},
) {
  const path = opts.path ?? uniq('project');
  const json: Record<string, unknown> = { name: opts.name ?? path, path, visibility: opts.visibility ?? 'private' };
  if (opts.namespaceId !== undefined) json.namespace_id = opts.namespaceId;
  if (opts.description !== undefined) json.description = opts.description;
  if (opts.defaultBranch !== undefined) json.default_branch = opts.defaultBranch;
  return ok(api('POST', '/projects', { token, json }), 201, 'createProject');
}

/** POST /groups/:id/members. Returns the Member JSON. */
export function addGroupMember(token: string, groupId: number, userId: number, level: number, expiresAt?: string) {
  const json: Record<string, unknown> = { user_id: userId, access_level: level };
  if (expiresAt) json.expires_at = expiresAt;
  return ok(api('POST', `/groups/${groupId}/members`, { token, json }), 201, 'addGroupMember');
}

/** POST /projects/:id/members. Returns the Member JSON. */
export function addProjectMember(token: string, projectId: number, userId: number, level: number, expiresAt?: string) {
  const json: Record<string, unknown> = { user_id: userId, access_level: level };
  if (expiresAt) json.expires_at = expiresAt;
  return ok(api('POST', `/projects/${projectId}/members`, { token, json }), 201, 'addProjectMember');
}
