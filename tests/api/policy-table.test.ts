// The policy table walked against the live server: every operation of lib/openapi/permission-table.ts x
// every caller (a role reached through each access path, with an `api` and a `read_api` token; blocked
// members; an admin; `Sudo`; a non-member; anonymous; a read_user token) is sent once, and the answer's
// status is compared with the table's verdict. The route files on disk are enumerated: a route method
// with no row (or a row with no probe) fails. Probes are chosen so that a call that passes authorization
// does no harm (a conflict, a validation error or a no-op past the check); calls that destroy something
// run on a throwaway object, or restore what they removed before the next caller.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_PATHS,
  MAINTAINER,
  OWNER,
  PERMISSION_TABLE,
  ROLE_LEVELS,
  rowKey,
  verdict,
  type Caller,
  type PolicyRow,
  type Verdict,
} from '@/lib/openapi/permission-table';
import { MAX_STALE_DAYS } from '@/lib/settings/runner-constants';
import { rootToken, uniq } from '../support/api';
import { ROOT } from '../support/server';
import { needsServer, testServerUrl } from '@/lib/db/test-server';
import { removeRepo } from '../fixtures/git-repos';
import { fetchApi, type Answer } from '../support/policy-http';
import {
  addMember,
  buildPolicyFixture,
  group,
  pool,
  project,
  shareGroup,
  shareProject,
  token,
  type PolicyFixture,
  type Targets,
} from '../support/policy-fixture';

// ------------------------------------------------------------------------------------------- callers
interface WalkCaller {
  name: string;
  token?: string;
  headers?: Record<string, string>;
  /** The user the request acts as (after Sudo). */
  userId?: number;
  /** The user owning the token (the admin for Sudo). */
  tokenUserId?: number;
  tokenScopes?: string[];
  path?: string;
  role?: number;
  admin: boolean;
  anonymous: boolean;
  blocked: boolean;
  scopes: string[] | null;
  /** Instance rows are walked by this smaller set (they do not depend on paths). */
  instance: boolean;
}

function callers(f: PolicyFixture): WalkCaller[] {
  const out: WalkCaller[] = [];
  const base = { admin: false, anonymous: false, blocked: false };
  for (const p of ACCESS_PATHS) {
    for (const role of ROLE_LEVELS) {
      const u = f.users[p.name][role];
      out.push({
        ...base,
        name: `${p.name}/${role}/api`,
        token: u.api,
        userId: u.id,
        tokenUserId: u.id,
        tokenScopes: ['api'],
        path: p.name,
        role,
        scopes: ['api'],
        instance: false,
      });
      // read_api: every role on the direct path, the Owner on every path (a read_api write is refused
      // before any rule, whoever holds the token).
      if (p.name === 'direct' || role === OWNER)
        out.push({
          ...base,
          name: `${p.name}/${role}/read_api`,
          token: u.readApi,
          userId: u.id,
          tokenUserId: u.id,
          tokenScopes: ['read_api'],
          path: p.name,
          role,
          scopes: ['read_api'],
          instance: false,
        });
    }
  }
  for (const role of ROLE_LEVELS) {
    const u = f.blocked[role];
    out.push({
      ...base,
      name: `blocked/${role}`,
      token: u.api,
      userId: u.id,
      tokenUserId: u.id,
      tokenScopes: ['api'],
      path: 'blocked',
      role,
      blocked: true,
      scopes: ['api'],
      instance: role === MAINTAINER,
    });
    // Sudo: the admin's token acting as the direct member of this role, judged as that member.
    const d = f.users.direct[role];
    out.push({
      ...base,
      name: `sudo->direct/${role}`,
      token: f.admin.sudo,
      headers: { Sudo: String(d.id) },
      userId: d.id,
      tokenUserId: f.admin.id,
      tokenScopes: ['api', 'sudo'],
      path: 'direct',
      role,
      scopes: ['api', 'sudo'],
      instance: role === GUEST_ROLE,
    });
  }
  out.push({
    ...base,
    name: 'admin/api',
    token: f.admin.api,
    userId: f.admin.id,
    tokenUserId: f.admin.id,
    tokenScopes: ['api'],
    admin: true,
    scopes: ['api'],
    instance: true,
  });
  out.push({
    ...base,
    name: 'admin/read_api',
    token: f.admin.readApi,
    userId: f.admin.id,
    tokenUserId: f.admin.id,
    tokenScopes: ['read_api'],
    admin: true,
    scopes: ['read_api'],
    instance: true,
  });
  out.push({
    ...base,
    name: 'nonmember/api',
    token: f.nonmember.api,
    userId: f.nonmember.id,
    tokenUserId: f.nonmember.id,
    tokenScopes: ['api'],
    scopes: ['api'],
    instance: true,
  });
  out.push({
    ...base,
    name: 'nonmember/read_api',
    token: f.nonmember.readApi,
    userId: f.nonmember.id,
    tokenUserId: f.nonmember.id,
    tokenScopes: ['read_api'],
    scopes: ['read_api'],
    instance: true,
  });
  out.push({
    ...base,
    name: 'nonmember/read_user',
    token: f.nonmember.readUser,
    userId: f.nonmember.id,
    tokenUserId: f.nonmember.id,
    tokenScopes: ['read_user'],
    scopes: ['read_user'],
    instance: true,
  });
  out.push({ ...base, name: 'anonymous', anonymous: true, scopes: null, instance: true });
  return out;
}
const GUEST_ROLE = 10;

/** The caller's level and visibility of a row's subject, from the access path's rule in the table. */
function callerFacts(row: PolicyRow, c: WalkCaller): Caller {
  const facts: Caller = { anonymous: c.anonymous, admin: c.admin, blocked: c.blocked, scopes: c.scopes, level: 0, readable: false };
  const p = ACCESS_PATHS.find((x) => x.name === (c.path === 'blocked' ? 'direct' : c.path));
  if (!p || !c.role) return facts;
  if (row.subject === 'project' || row.subject === 'runner') facts.level = p.project ? c.role : 0;
  if (row.subject === 'group') facts.level = p.group ? c.role : 0;
  facts.readable = facts.level >= GUEST_ROLE || (row.subject === 'group' && !row.membersOnly && p.groupReadable === true);
  return facts;
}

const targetsOf = (f: PolicyFixture, c: WalkCaller): Targets => (c.path ? f.targets[c.path] : f.main);

// ------------------------------------------------------------------------------------------- probes
interface Request {
  method: string;
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  /** The status of a call that passed authorization. */
  ok: number;
  /** When `ok` is 404: the message that tells "passed, then not found" from "hidden". */
  okMessage?: RegExp;
}

interface ProbeCtx {
  f: PolicyFixture;
  t: Targets;
  c: WalkCaller;
  grant?: number;
  /** Set by a restoring probe's `restore`. */
  state: Record<string, number>;
}

interface Probe {
  build(ctx: ProbeCtx): Request;
  /** The call removes what it targets: put it back before the next caller when the last call consumed it. */
  restore?: (ctx: ProbeCtx) => Promise<void>;
  /** The call destroys its target: an allowed caller gets a throwaway target reached through the same path. */
  throwaway?: 'project' | 'group';
  /** The call revokes the token it is sent with: each caller gets a fresh token with the same scopes. */
  freshToken?: boolean;
}

const P = (ctx: ProbeCtx) => `/projects/${ctx.t.projectId}`;
const G = (ctx: ProbeCtx) => `/groups/${ctx.t.groupId}`;
const R = (ctx: ProbeCtx) => `/runners/${ctx.t.runnerId}`;
/** The target's MR (targets without a repository point at the main project's, which they do not reach). */
const MR = (ctx: ProbeCtx) => ctx.t.mrIid ?? ctx.f.mrIid;
/** The project that holds the target's MRs. */
const mrProject = (ctx: ProbeCtx) => (ctx.t.mrIid !== undefined ? ctx.t.projectId : ctx.f.main.projectId);
const get = (p: (ctx: ProbeCtx) => string): Probe => ({ build: (ctx) => ({ method: 'GET', path: p(ctx), ok: 200 }) });
const BOGUS_RUNNER = 'glrt-policy-table-bogus-token';

const PROBES: Record<string, Probe> = {
  'GET /[...path]': { build: () => ({ method: 'GET', path: '/policy-table-no-such-route', ok: 404 }) },
  'GET /': { build: () => ({ method: 'GET', path: '', ok: 404 }) },
  'GET /version': get(() => '/version'),
  'GET /metadata': get(() => '/metadata'),
  'GET /openapi.json': get(() => '/openapi.json'),
  'GET /application/settings': get(() => '/application/settings'),
  // No parameter: GitLab's at_least_one_of answers 400, after the admin check (Grape runs `before` first).
  'PUT /application/settings': { build: () => ({ method: 'PUT', path: '/application/settings', json: {}, ok: 400 }) },
  'GET /audit_events': get(() => '/audit_events'),
  'GET /audit_events/[id]': { build: () => ({ method: 'GET', path: '/audit_events/2147483000', ok: 404 }) },
  'GET /namespaces': get(() => '/namespaces'),
  'GET /namespaces/[id]/exists': get((ctx) => `/namespaces/${ctx.f.topGroupPath}/exists`),
  'GET /namespaces/[id]': get((ctx) => `/namespaces/${ctx.t.groupId}`),
  'GET /merge_requests': get(() => '/merge_requests?scope=all'),
  'GET /user': get(() => '/user'),
  // Token callers may create only k8s_proxy tokens: `api` is refused (400) past authentication.
  'POST /user/personal_access_tokens': {
    build: () => ({ method: 'POST', path: '/user/personal_access_tokens', json: { name: 'policy', scopes: ['api'] }, ok: 400 }),
  },
  'GET /user/sessions': get(() => '/user/sessions'),
  'DELETE /user/sessions/[id]': { build: () => ({ method: 'DELETE', path: '/user/sessions/policy-table-no-such-session', ok: 404 }) },
  'POST /user/runners (instance_type)': {
    build: () => ({ method: 'POST', path: '/user/runners', json: { runner_type: 'instance_type', description: 'policy' }, ok: 201 }),
  },
  'POST /user/runners (project_type)': {
    build: (ctx) => ({
      method: 'POST',
      path: '/user/runners',
      json: { runner_type: 'project_type', project_id: ctx.t.projectId, description: 'policy' },
      ok: 201,
    }),
  },
  // Anonymous callers list users only by exact username (lib/api/users.rb).
  'GET /users': get((ctx) => `/users?username=${ctx.f.anchor.username}`),
  'POST /users': {
    build: (ctx) => ({
      method: 'POST',
      path: '/users',
      json: { username: ctx.f.anchor.username, email: `${uniq('x')}@example.com`, name: 'x', password: 'runway-test-password-1', skip_confirmation: true },
      ok: 409,
    }),
  },
  'GET /users/[id]': get((ctx) => `/users/${ctx.f.anchor.id}`),
  'PUT /users/[id]': { build: (ctx) => ({ method: 'PUT', path: `/users/${ctx.f.anchor.id}`, json: { bio: 'policy' }, ok: 200 }) },
  'DELETE /users/[id]': { build: () => ({ method: 'DELETE', path: '/users/2147483000', ok: 404 }) },
  'POST /users/[id]/block': { build: () => ({ method: 'POST', path: '/users/2147483000/block', ok: 404 }) },
  'POST /users/[id]/unblock': { build: () => ({ method: 'POST', path: '/users/2147483000/unblock', ok: 404 }) },
  'POST /users/[id]/unlock': { build: () => ({ method: 'POST', path: '/users/2147483000/unlock', ok: 404 }) },
  'GET /users/[id]/memberships': get((ctx) => `/users/${ctx.f.anchor.id}/memberships`),
  'POST /users/[id]/personal_access_tokens': {
    build: () => ({ method: 'POST', path: '/users/2147483000/personal_access_tokens', json: { name: 'x', scopes: ['api'] }, ok: 404 }),
  },
  'GET /users/[id]/projects': get((ctx) => `/users/${ctx.f.anchor.id}/projects`),
  'GET /personal_access_tokens': get(() => '/personal_access_tokens'),
  'GET /personal_access_tokens/[id]': get((ctx) => `/personal_access_tokens/${ctx.state.anchorToken}`),
  'DELETE /personal_access_tokens/[id]': {
    build: (ctx) => ({ method: 'DELETE', path: `/personal_access_tokens/${ctx.state.victimToken}`, ok: 204 }),
    restore: async (ctx) => {
      const res = await fetchApi('POST', `/users/${ctx.f.victim.id}/personal_access_tokens`, {
        token: rootToken(),
        json: { name: uniq('v'), scopes: ['api'] },
      });
      ctx.state.victimToken = res.body.id;
    },
  },
  'GET /personal_access_tokens/self': { ...get(() => '/personal_access_tokens/self'), freshToken: true },
  'DELETE /personal_access_tokens/self': { build: () => ({ method: 'DELETE', path: '/personal_access_tokens/self', ok: 204 }), freshToken: true },

  'GET /groups': get(() => '/groups'),
  'POST /groups (top-level)': { build: (ctx) => ({ method: 'POST', path: '/groups', json: { name: ctx.f.topGroupPath, path: ctx.f.topGroupPath }, ok: 400 }) },
  'POST /groups (subgroup)': {
    build: (ctx) => ({ method: 'POST', path: '/groups', json: { name: ctx.f.takenPath, path: ctx.f.takenPath, parent_id: ctx.t.groupId }, ok: 400 }),
  },
  'GET /groups/[id]': get(G),
  'PUT /groups/[id]': { build: (ctx) => ({ method: 'PUT', path: G(ctx), json: { description: 'policy' }, ok: 200 }) },
  'PUT /groups/[id] (visibility)': { build: (ctx) => ({ method: 'PUT', path: G(ctx), json: { visibility: 'private' }, ok: 200 }) },
  'PUT /groups/[id] (share_with_group_lock)': {
    // The lock's current value (a no-op past authorization): on for L and K, off elsewhere.
    build: (ctx) => ({
      method: 'PUT',
      path: G(ctx),
      json: { share_with_group_lock: ctx.t.groupId === ctx.f.groupIds.L || ctx.t.groupId === ctx.f.groupIds.K },
      ok: 200,
    }),
  },
  'DELETE /groups/[id]': { build: (ctx) => ({ method: 'DELETE', path: G(ctx), ok: 202 }), throwaway: 'group' },
  'GET /groups/[id]/subgroups': get((ctx) => `${G(ctx)}/subgroups`),
  'GET /groups/[id]/descendant_groups': get((ctx) => `${G(ctx)}/descendant_groups`),
  'GET /groups/[id]/projects': get((ctx) => `${G(ctx)}/projects`),
  'GET /groups/[id]/members': get((ctx) => `${G(ctx)}/members`),
  'GET /groups/[id]/members/all': get((ctx) => `${G(ctx)}/members/all`),
  'GET /groups/[id]/members/[user_id]': get((ctx) => `${G(ctx)}/members/${ctx.f.anchor.id}`),
  'GET /groups/[id]/members/all/[user_id]': get((ctx) => `${G(ctx)}/members/all/${ctx.f.anchor.id}`),
  // The anchor is a member already: 409 once authorization (and the grant rule) passed.
  'POST /groups/[id]/members': {
    build: (ctx) => ({ method: 'POST', path: `${G(ctx)}/members`, json: { user_id: ctx.f.anchor.id, access_level: ctx.grant }, ok: 409 }),
  },
  // An expiry in the past is refused (400) after the permission checks, so nothing changes.
  'PUT /groups/[id]/members/[user_id]': {
    build: (ctx) => ({ method: 'PUT', path: `${G(ctx)}/members/${ctx.f.anchor.id}`, json: { access_level: ctx.grant, expires_at: '2000-01-01' }, ok: 400 }),
  },
  // skip_subresources: the victim's memberships below the group (the project probe's target) stay.
  'DELETE /groups/[id]/members/[user_id]': {
    build: (ctx) => ({ method: 'DELETE', path: `${G(ctx)}/members/${ctx.f.victim.id}?skip_subresources=true`, ok: 204 }),
    restore: (ctx) => addMember('groups', ctx.t.groupId, ctx.f.victim.id, 10),
  },
  'POST /groups/[id]/share': {
    build: (ctx) => ({ method: 'POST', path: `${G(ctx)}/share`, json: { group_id: ctx.f.pub.id, group_access: ctx.grant }, ok: 409 }),
  },
  'DELETE /groups/[id]/share/[group_id]': {
    build: (ctx) => ({ method: 'DELETE', path: `${G(ctx)}/share/${ctx.f.unshareGroup.id}`, ok: 204 }),
    restore: (ctx) => shareGroup(ctx.t.groupId, ctx.f.unshareGroup.id, 30),
  },
  'GET /groups/[id]/runners': get((ctx) => `${G(ctx)}/runners`),
  'GET /groups/[id]/runners/all': get((ctx) => `${G(ctx)}/runners/all`),
  'GET /groups/[id]/runners/counts': get((ctx) => `${G(ctx)}/runners/counts`),
  'GET /groups/[id]/runners/usage': get((ctx) => `${G(ctx)}/runners/usage?from=2001-01-01&to=2001-01-01`),
  'POST /groups/[id]/runners/reset_registration_token': { build: (ctx) => ({ method: 'POST', path: `${G(ctx)}/runners/reset_registration_token`, ok: 201 }) },
  'GET /groups/[id]/audit_events': get((ctx) => `${G(ctx)}/audit_events`),
  'GET /groups/[id]/audit_events/[audit_event_id]': {
    build: (ctx) => ({ method: 'GET', path: `${G(ctx)}/audit_events/2147483000`, ok: 404, okMessage: /"404 Not found"/ }),
  },

  'GET /projects': get(() => '/projects'),
  'POST /projects (personal)': { build: () => ({ method: 'POST', path: '/projects', json: { name: 'policy', path: 'policy/bad path' }, ok: 400 }) },
  'POST /projects (in group)': {
    build: (ctx) => ({ method: 'POST', path: '/projects', json: { name: ctx.f.takenPath, path: ctx.f.takenPath, namespace_id: ctx.t.groupId }, ok: 400 }),
  },
  'GET /projects/[id]': get(P),
  'PUT /projects/[id]': { build: (ctx) => ({ method: 'PUT', path: P(ctx), json: { description: 'policy' }, ok: 200 }) },
  'PUT /projects/[id] (visibility)': { build: (ctx) => ({ method: 'PUT', path: P(ctx), json: { visibility: 'private' }, ok: 200 }) },
  'DELETE /projects/[id]': { build: (ctx) => ({ method: 'DELETE', path: P(ctx), ok: 202 }), throwaway: 'project' },
  'GET /projects/[id]/groups': get((ctx) => `${P(ctx)}/groups`),
  'GET /projects/[id]/members': get((ctx) => `${P(ctx)}/members`),
  'GET /projects/[id]/members/all': get((ctx) => `${P(ctx)}/members/all`),
  'GET /projects/[id]/members/[user_id]': get((ctx) => `${P(ctx)}/members/${ctx.f.anchor.id}`),
  'GET /projects/[id]/members/all/[user_id]': get((ctx) => `${P(ctx)}/members/all/${ctx.f.anchor.id}`),
  'POST /projects/[id]/members': {
    build: (ctx) => ({ method: 'POST', path: `${P(ctx)}/members`, json: { user_id: ctx.f.anchor.id, access_level: ctx.grant }, ok: 409 }),
  },
  'PUT /projects/[id]/members/[user_id]': {
    build: (ctx) => ({ method: 'PUT', path: `${P(ctx)}/members/${ctx.f.anchor.id}`, json: { access_level: ctx.grant, expires_at: '2000-01-01' }, ok: 400 }),
  },
  'DELETE /projects/[id]/members/[user_id]': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/members/${ctx.f.victim.id}`, ok: 204 }),
    restore: (ctx) => addMember('projects', ctx.t.projectId, ctx.f.victim.id, 10),
  },
  'DELETE /projects/[id]/members/[user_id] (an Owner)': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/members/${ctx.f.victimOwner.id}`, ok: 204 }),
    restore: (ctx) => addMember('projects', ctx.t.projectId, ctx.f.victimOwner.id, OWNER),
  },
  // The public group is shared into every target already: 409 once authorization and the grant rule passed.
  'POST /projects/[id]/share': {
    build: (ctx) => ({ method: 'POST', path: `${P(ctx)}/share`, json: { group_id: ctx.f.pub.id, group_access: ctx.grant }, ok: 409 }),
  },
  'DELETE /projects/[id]/share/[group_id]': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/share/${ctx.f.unshareGroup.id}`, ok: 204 }),
    // A locked namespace refuses the share again (400): its link was never removed.
    restore: (ctx) => shareProject(ctx.t.projectId, ctx.f.unshareGroup.id, 30).catch(() => undefined),
  },
  'DELETE /projects/[id]/share/[group_id] (an Owner link)': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/share/${ctx.f.ownerLinkGroup.id}`, ok: 204 }),
    // A locked namespace refuses the share again (400): its link was never removed.
    restore: (ctx) => shareProject(ctx.t.projectId, ctx.f.ownerLinkGroup.id, OWNER).catch(() => undefined),
  },
  'GET /projects/[id]/repository/branches': get((ctx) => `${P(ctx)}/repository/branches`),
  'GET /projects/[id]/repository/branches/[branch]': get((ctx) => `${P(ctx)}/repository/branches/main`),
  'GET /projects/[id]/repository/commits': get((ctx) => `${P(ctx)}/repository/commits`),
  'GET /projects/[id]/repository/commits/[sha]': get((ctx) => `${P(ctx)}/repository/commits/${ctx.f.sha}`),
  'GET /projects/[id]/merge_requests': get((ctx) => `${P(ctx)}/merge_requests`),
  'GET /projects/[id]/merge_requests/[merge_request_iid]': get((ctx) => `${P(ctx)}/merge_requests/${MR(ctx)}`),
  'GET /projects/[id]/merge_requests/[merge_request_iid]/commits': get((ctx) => `${P(ctx)}/merge_requests/${MR(ctx)}/commits`),
  'GET /projects/[id]/merge_requests/[merge_request_iid]/context_commits': get((ctx) => `${P(ctx)}/merge_requests/${MR(ctx)}/context_commits`),
  // The same branches as the open MR: 409 past authorization.
  'POST /projects/[id]/merge_requests': {
    build: (ctx) => ({
      method: 'POST',
      path: `${P(ctx)}/merge_requests`,
      json: { title: 'policy', source_branch: 'policy-mr', target_branch: 'main' },
      ok: 409,
    }),
  },
  'PUT /projects/[id]/merge_requests/[merge_request_iid]': {
    build: (ctx) => ({ method: 'PUT', path: `${P(ctx)}/merge_requests/${MR(ctx)}`, json: { description: 'policy' }, ok: 200 }),
  },
  // The MR to delete is made (restored) in the project holding the target's MRs; one iid per project.
  'DELETE /projects/[id]/merge_requests/[merge_request_iid]': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/merge_requests/${ctx.state[`del${mrProject(ctx)}`] ?? 2147483000}`, ok: 204 }),
    restore: async (ctx) => {
      const res = await fetchApi('POST', `/projects/${mrProject(ctx)}/merge_requests`, {
        token: rootToken(),
        json: { title: 'policy delete', source_branch: 'policy-del', target_branch: 'main' },
      });
      // 409: the MR is still open (another target's caller restored it), its iid is in the message.
      if (res.status === 409) ctx.state[`del${mrProject(ctx)}`] = Number(/!(\d+)/.exec(res.text)?.[1]);
      else if (res.status !== 201) throw new Error(`restore MR: ${res.status} ${res.text}`);
      else ctx.state[`del${mrProject(ctx)}`] = res.body.iid;
    },
  },
  // A commit the repository does not hold: 400 past authorization.
  'POST /projects/[id]/merge_requests/[merge_request_iid]/context_commits': {
    build: (ctx) => ({ method: 'POST', path: `${P(ctx)}/merge_requests/${MR(ctx)}/context_commits`, json: { commits: ['f'.repeat(40)] }, ok: 400 }),
  },
  'DELETE /projects/[id]/merge_requests/[merge_request_iid]/context_commits': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/merge_requests/${MR(ctx)}/context_commits`, json: { commits: ['f'.repeat(40)] }, ok: 400 }),
  },
  'GET /projects/[id]/audit_events': get((ctx) => `${P(ctx)}/audit_events`),
  'GET /projects/[id]/audit_events/[audit_event_id]': {
    build: (ctx) => ({ method: 'GET', path: `${P(ctx)}/audit_events/2147483000`, ok: 404, okMessage: /"404 Not found"/ }),
  },
  'GET /projects/[id]/runners': get((ctx) => `${P(ctx)}/runners`),
  'GET /projects/[id]/runners/all': get((ctx) => `${P(ctx)}/runners/all`),
  'GET /projects/[id]/runners/assignable': get((ctx) => `${P(ctx)}/runners/assignable`),
  // The project's own runner is assigned already: AssignRunnerService's error, rendered 400, past authorization.
  'POST /projects/[id]/runners': { build: (ctx) => ({ method: 'POST', path: `${P(ctx)}/runners`, json: { runner_id: ctx.t.runnerId }, ok: 400 }) },
  'DELETE /projects/[id]/runners/[runner_id]': {
    build: (ctx) => ({ method: 'DELETE', path: `${P(ctx)}/runners/2147483000`, ok: 404, okMessage: /Runner/ }),
  },
  'POST /projects/[id]/runners/reset_registration_token': { build: (ctx) => ({ method: 'POST', path: `${P(ctx)}/runners/reset_registration_token`, ok: 201 }) },

  'GET /runners': get(() => '/runners'),
  'GET /runners/all': get(() => '/runners/all'),
  'GET /runners/all/counts': get(() => '/runners/all/counts'),
  'GET /runners/tags': get(() => '/runners/tags'),
  'GET /runners/events': get(() => '/runners/events?policy_probe=1'),
  // A preview (no removal) needs its rule's stale_days.
  'GET /runners/cleanup': get(() => `/runners/cleanup?stale_days=${MAX_STALE_DAYS}`),
  // A cleanup run past authorization would remove stale runners: a malformed dry_run stops it at 400.
  'POST /runners/cleanup': { build: () => ({ method: 'POST', path: '/runners/cleanup', json: { dry_run: 'not-a-boolean' }, ok: 400 }) },
  'GET /runners/cleanup/runs': get(() => '/runners/cleanup/runs'),
  // Fleet alerts: a rule id no row has (404 after the admin check), and a POST that fails validation (400).
  'GET /runners/alert_rules': get(() => '/runners/alert_rules'),
  'POST /runners/alert_rules': { build: () => ({ method: 'POST', path: '/runners/alert_rules', json: { name: 'policy' }, ok: 400 }) },
  'GET /runners/alert_rules/[rule_id]': { build: () => ({ method: 'GET', path: '/runners/alert_rules/2147483000', ok: 404 }) },
  'PUT /runners/alert_rules/[rule_id]': { build: () => ({ method: 'PUT', path: '/runners/alert_rules/2147483000', json: { name: 'policy' }, ok: 404 }) },
  'DELETE /runners/alert_rules/[rule_id]': { build: () => ({ method: 'DELETE', path: '/runners/alert_rules/2147483000', ok: 404 }) },
  'GET /runners/alert_rules/[rule_id]/deliveries': { build: () => ({ method: 'GET', path: '/runners/alert_rules/2147483000/deliveries', ok: 404 }) },
  'POST /runners/alert_rules/[rule_id]/test_webhook': { build: () => ({ method: 'POST', path: '/runners/alert_rules/2147483000/test_webhook', ok: 404 }) },
  'GET /runners/alerts': get(() => '/runners/alerts'),
  'GET /runners/fleet/jobs': get(() => '/runners/fleet/jobs'),
  'GET /runners/usage': get(() => '/runners/usage?from=2001-01-01&to=2001-01-01'),
  'GET /runners/fleet/status': get(() => '/runners/fleet/status'),
  'GET /runners/fleet/status_history': get(() => '/runners/fleet/status_history'),
  'GET /runners/fleet/versions': get(() => '/runners/fleet/versions'),
  'POST /runners/reset_registration_token': { build: () => ({ method: 'POST', path: '/runners/reset_registration_token', ok: 201 }) },
  'GET /runners/[id]': get(R),
  'PUT /runners/[id]': { build: (ctx) => ({ method: 'PUT', path: R(ctx), json: { description: 'policy' }, ok: 200 }) },
  // If-Unmodified-Since in the past: 412 past authorization, nothing removed.
  'DELETE /runners/[id]': {
    build: (ctx) => ({ method: 'DELETE', path: R(ctx), headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' }, ok: 412 }),
  },
  'GET /runners/[id]/jobs': get((ctx) => `${R(ctx)}/jobs`),
  'GET /runners/[id]/managers': get((ctx) => `${R(ctx)}/managers`),
  'GET /runners/[id]/projects': get((ctx) => `${R(ctx)}/projects`),
  'GET /runners/[id]/audit_events': get((ctx) => `${R(ctx)}/audit_events`),
  'POST /runners/[id]/reset_authentication_token': { build: (ctx) => ({ method: 'POST', path: `${R(ctx)}/reset_authentication_token`, ok: 201 }) },

  // The runner API answers a runner token, whoever else is asking: a bogus one is 403 for everybody.
  'POST /runners': { build: () => ({ method: 'POST', path: '/runners', json: { token: BOGUS_RUNNER }, ok: 403 }) },
  'DELETE /runners': { build: () => ({ method: 'DELETE', path: '/runners', json: { token: BOGUS_RUNNER }, ok: 403 }) },
  'POST /runners/verify': { build: () => ({ method: 'POST', path: '/runners/verify', json: { token: BOGUS_RUNNER }, ok: 403 }) },
  'POST /runners/reset_authentication_token': {
    build: () => ({ method: 'POST', path: '/runners/reset_authentication_token', json: { token: BOGUS_RUNNER }, ok: 403 }),
  },
  'DELETE /runners/managers': { build: () => ({ method: 'DELETE', path: '/runners/managers', json: { token: BOGUS_RUNNER, system_id: 's_policy' }, ok: 403 }) },
  'POST /jobs/request': { build: () => ({ method: 'POST', path: '/jobs/request', json: { token: BOGUS_RUNNER }, ok: 403 }) },
};

// ------------------------------------------------------------------------------------------- route files
/**
 * The `routes({...})` call a route file exports: written in the file, or imported by name from a lib module
 * (`export const { GET, ... } = verifyRoute;`).
 */
function servedRoutes(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (text.includes('routes(')) return text.slice(text.indexOf('routes('));
  const name = /=\s*(\w+);/.exec(text.slice(text.indexOf('export const {')))?.[1];
  const from = name && new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '@/([^']+)'`).exec(text)?.[1];
  if (!from) return '';
  const lib = readFileSync(path.join(ROOT, `${from}.ts`), 'utf8');
  const at = lib.indexOf(`export const ${name} = routes(`);
  return at < 0 ? '' : lib.slice(at, lib.indexOf(');', at));
}

/** Every route file's folder under app/api/v4 and the methods its `routes({...})` serves. */
function routeMethods(): Array<{ route: string; methods: string[] }> {
  const base = path.join(ROOT, 'app', 'api', 'v4');
  const out: Array<{ route: string; methods: string[] }> = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(base, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (e.name === 'route.ts') {
        const methods = [...new Set([...servedRoutes(path.join(base, child)).matchAll(/\b(GET|POST|PUT|PATCH|DELETE):/g)].map((m) => m[1]))];
        out.push({ route: rel, methods });
      }
    }
  };
  walk('');
  return out;
}

const rowsFor = (route: string, method: string) => PERMISSION_TABLE.filter((r) => r.route === route && (r.method === method || r.method === '*'));

// ------------------------------------------------------------------------------------------- the walk
interface Case {
  row: PolicyRow;
  key: string;
  probe: Probe;
  caller: WalkCaller;
  grant?: number;
}

interface Mismatch {
  case: string;
  expected: Verdict | number;
  got: number;
  body: string;
}

let fixture: PolicyFixture;
let fixtureSeconds = '';
beforeAll(async () => {
  if (!testServerUrl) return; // only the walk reads it, and it runs on a PostgreSQL server
  const started = Date.now();
  fixture = await buildPolicyFixture();
  fixtureSeconds = ((Date.now() - started) / 1000).toFixed(1);
}, 300_000);
afterAll(() => fixture && removeRepo(fixture.repo));

/** A fresh project or group reached by the caller through the caller's own path (for destructive probes). */
async function throwaway(kind: 'project' | 'group', f: PolicyFixture, c: WalkCaller): Promise<Targets> {
  const t = { ...targetsOf(f, c) };
  if (kind === 'project') {
    // In B for the lifted-lock path (its share counts only there), in S otherwise.
    const lifted = c.path === 'lock-lifted-by-parent-owner';
    const p = await project('pt-throwaway', lifted ? f.groupIds.B : f.inS);
    if (c.path === 'direct' && c.userId) await addMember('projects', p.id, c.userId, c.role ?? OWNER);
    if (c.path === 'project-share') await shareProject(p.id, f.invited.Xp, OWNER);
    if (lifted) await shareProject(p.id, f.invited.Xa, OWNER);
    return { ...t, projectId: p.id };
  }
  if (c.path === 'direct' && c.userId) {
    const g = await group('pt-throwaway');
    await addMember('groups', g.id, c.userId, c.role ?? OWNER);
    return { ...t, groupId: g.id };
  }
  const g = await group('pt-throwaway', { parent_id: f.inS });
  return { ...t, groupId: g.id };
}

function matches(expected: Verdict, req: Request, res: Answer): boolean {
  if (expected === 'allow') {
    if (res.status !== req.ok) return false;
    return !req.okMessage || req.okMessage.test(res.text);
  }
  if (res.status !== expected) return false;
  // A refusal must not be the probe's own "passed, then not found".
  return !(expected === 404 && req.ok === 404 && req.okMessage && req.okMessage.test(res.text));
}

describe('[POLICY TABLE] every /api/v4 route has rows, every row a probe', () => {
  it('route files on disk x methods <-> table rows <-> probes', () => {
    const missing: string[] = [];
    const served = routeMethods();
    for (const { route, methods } of served) {
      if (methods.length === 0 && !rowsFor(route, '*').length) missing.push(`no row for the catch-all ${route || '(root)'}`);
      for (const m of methods) if (!rowsFor(route, m).length) missing.push(`no row for ${m} /${route}`);
    }
    const stale = PERMISSION_TABLE.filter((r) => {
      const file = served.find((s) => s.route === r.route);
      return !file || (r.method !== '*' && !file.methods.includes(r.method));
    }).map(rowKey);
    const noProbe = PERMISSION_TABLE.map((r) => probeKey(r)).filter((k) => !PROBES[k]);
    expect({ missing, stale, noProbe }).toEqual({ missing: [], stale: [], noProbe: [] });
    expect(served.length).toBeGreaterThanOrEqual(91);
  });
});

const probeKey = (r: PolicyRow) => (r.method === '*' ? `GET /${r.route}` : rowKey(r));

describe(
  '[POLICY TABLE] the walk: route x caller (role x access path x token scope) against the live server',
  needsServer(
    "the rules do not depend on the database engine, and on the single-session embedded database the walk takes minutes of CI's 90-minute budget; the PostgreSQL run walks it",
  ),
  () => {
    it('every answer is the table verdict', async () => {
      const f = fixture;
      console.log(`policy table: fixture built in ${fixtureSeconds}s`);
      const all = callers(f);
      const cases: Case[] = [];
      for (const row of PERMISSION_TABLE) {
        const key = probeKey(row);
        const probe = PROBES[key];
        if (!probe) continue;
        const who = row.subject === 'instance' || row.subject === 'none' || row.subject === 'runner-token' ? all.filter((c) => c.instance) : all;
        const grants = row.grants ? [MAINTAINER, OWNER] : [undefined];
        for (const caller of who) for (const grant of grants) cases.push({ row, key, probe, caller, grant });
      }

      // Per-row state (restoring probes) and the "last call consumed the target" flags.
      const state = new Map<string, Record<string, number>>();
      const consumed = new Map<string, boolean>();
      const mismatches: Mismatch[] = [];
      const tokenIds = await fetchApi('GET', `/personal_access_tokens?user_id=${f.anchor.id}`, { token: rootToken() });
      const anchorToken = (tokenIds.body as Array<{ id: number }>)[0].id;

      const run = async (cs: Case) => {
        const st = state.get(cs.key) ?? { anchorToken };
        state.set(cs.key, st);
        const facts = callerFacts(cs.row, cs.caller);
        const expected = verdict(cs.row, facts, cs.grant);
        let t = targetsOf(f, cs.caller);
        if (cs.probe.throwaway && expected === 'allow') t = await throwaway(cs.probe.throwaway, f, cs.caller);
        const ctx: ProbeCtx = { f, t, c: cs.caller, grant: cs.grant, state: st };
        // What a restoring probe removes lives on its subject: one flag per row and subject.
        const spot = `${cs.key}|${cs.row.subject === 'group' ? `g${t.groupId}` : `p${t.projectId}`}`;
        if (cs.probe.restore && consumed.get(spot) !== false) {
          await cs.probe.restore(ctx);
          consumed.set(spot, false);
        }
        const req = cs.probe.build(ctx);
        let tok = cs.caller.token;
        if (cs.probe.freshToken && tok && cs.caller.tokenUserId) tok = await token(cs.caller.tokenUserId, cs.caller.tokenScopes ?? ['api']);
        const res = await fetchApi(req.method, req.path, { token: tok, json: req.json, headers: { ...(cs.caller.headers ?? {}), ...(req.headers ?? {}) } });
        if (cs.probe.restore && res.status >= 200 && res.status < 300) consumed.set(spot, true);
        if (!matches(expected, req, res)) {
          mismatches.push({
            case: `${rowKey(cs.row)}${cs.grant ? ` grant=${cs.grant}` : ''} as ${cs.caller.name}`,
            expected: expected === 'allow' ? req.ok : expected,
            got: res.status,
            body: res.text.slice(0, 160),
          });
        }
      };

      const started = Date.now();
      // Restoring probes share one target per row: one caller at a time. The rest run side by side.
      const serial = cases.filter((c) => c.probe.restore);
      const destructive = cases.filter((c) => c.probe.throwaway);
      const parallel = cases.filter((c) => !c.probe.restore && !c.probe.throwaway);
      const guarded = async (cs: Case) => {
        try {
          await run(cs);
        } catch (err) {
          mismatches.push({ case: `${rowKey(cs.row)} as ${cs.caller.name}`, expected: 'allow', got: 0, body: String(err).slice(0, 160) });
        }
      };
      await pool(parallel, 8, guarded);
      await pool([...new Set(serial.map((c) => c.key))], 3, async (key) => {
        for (const c of serial.filter((s) => s.key === key)) await guarded(c);
      });
      // Last: a removal the table refuses but the server grants destroys a fixture object.
      await pool(destructive, 4, guarded);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `policy table: ${cases.length} cases (${PERMISSION_TABLE.length} rows, ${all.length} callers) in ${seconds}s, ${mismatches.length} mismatches`,
      );
      for (const m of mismatches) console.log(`  ${m.case}: expected ${m.expected}, got ${m.got} ${m.body}`);
      expect(mismatches).toEqual([]);
    }, 600_000);
  },
);
