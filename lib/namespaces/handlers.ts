// GET /namespaces and GET /namespaces/:id (route files only wire them to paths).
import type { RequestContext } from '../api/handler';
import { paginated } from '../api/handler';
import { notFound } from '../api/errors';
import type { Actor } from '../api/authenticate';
import type { Namespace } from '../db/generated/client';
import { groupAccessLevel } from './access';
import { namespaceEntity, namespaceExistence } from './entity';
import {
  countNamespaces,
  groupCounts,
  listNamespaces,
  namespaceByIdOrPath,
  namespacePathOrNameTaken,
  namespacePathTaken,
  ownedGroupIds,
} from './namespace-queries';
import type { listNamespacesParams, namespaceExistsParams } from './schema';

/** Namespace entities for a page: the counts only on groups the actor administers (three queries). */
async function present(actor: Actor, namespaces: Namespace[]) {
  const groupIds = namespaces.filter((ns) => ns.kind === 'group').map((ns) => ns.id);
  const administered = actor.user.admin ? new Set(groupIds) : await ownedGroupIds(actor.user.id, groupIds);
  const counts = await groupCounts([...administered]);
  return namespaces.map((ns) => namespaceEntity(ns, counts.get(ns.id)));
}

/** GET /namespaces: the caller's personal namespace and groups; admins every namespace. */
export async function listNamespacesHandler(ctx: RequestContext<typeof listNamespacesParams>) {
  const actor = ctx.user();
  const i = ctx.input;
  const f = {
    search: i.search || undefined,
    ownedOnly: i.owned_only === true,
    topLevelOnly: i.top_level_only ?? false,
    fullPathSearch: i.full_path_search ?? false,
  };
  const page = await ctx.paginate({ fetch: (offset, limit) => listNamespaces(actor, f, { offset, limit }), count: () => countNamespaces(actor, f) });
  return paginated({ items: await present(actor, page.items), headers: page.headers });
}

/**
 * GET /namespaces/:id (id or URL-encoded full path). GitLab's read_namespace_via_membership: the owner of a
 * personal namespace, members of a group (inherited too) and admins; anyone else gets the same 404.
 */
export async function showNamespaceHandler(ctx: RequestContext) {
  const actor = ctx.user();
  const ns = await namespaceByIdOrPath(ctx.pathParams.id ?? '');
  if (!ns) throw notFound('Namespace');
  if (!actor.user.admin) {
    const level = ns.kind === 'group' ? await groupAccessLevel(actor.user.id, ns.id) : ns.ownerId === actor.user.id ? 50 : 0;
    if (level === 0) throw notFound('Namespace');
  }
  return (await present(actor, [ns]))[0];
}

/**
 * GET /namespaces/:id/exists: whether a namespace with this path (any case) sits under `parent_id` (top
 * level without it), and if so a free variant of the cleaned path (Namespace.clean_path: "acme" -> "acme1").
 */
export async function namespaceExistsHandler(ctx: RequestContext<typeof namespaceExistsParams>) {
  ctx.user();
  const path = ctx.pathParams.id ?? '';
  const parentId = ctx.input.parent_id ?? null;
  const exists = await namespacePathTaken(path, parentId);
  if (!exists) return namespaceExistence(false, []);
  const base = cleanPath(path);
  let candidate = base;
  for (let n = 1; await namespacePathOrNameTaken(candidate, parentId); n++) candidate = `${base}${n}`;
  return namespaceExistence(true, [candidate]);
}

/** Namespace.clean_path: no e-mail domain, no .git, no leading dashes or trailing dots, only path characters. */
function cleanPath(path: string): string {
  const cleaned = path
    .replace(/@.*$/, '')
    .replace(/\.git$/, '')
    .replace(/^-+/, '')
    .replace(/\.+$/, '')
    .replace(/[^a-zA-Z0-9_.-]/g, '');
  return cleaned.trim() ? cleaned : 'blank';
}
