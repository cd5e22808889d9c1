// Groups and projects as the namespaces domain hands them around: the Prisma rows plus the human
// full name of the namespace ("Acme / Platform"), which GitLab shows as full_name / name_with_namespace.
// Ancestor names for a whole page come from one query.
import { db } from '../db/client';
import type { Namespace, Project } from '../db/generated/client';

export type NamespaceRecord = Namespace & { fullName: string };
export type ProjectRecord = Project & { namespace: NamespaceRecord };

/** A group a project or group is shared with (project_group_links / group_group_links; shares.ts). */
export interface SharedGroupLink {
  /** The group or project shared. */
  sourceId: number;
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccess: number;
  expiresAt: Date | null;
}

/** Adds `fullName` to each namespace (one query for every ancestor of the batch). */
export async function withFullNames<N extends Namespace>(namespaces: N[]): Promise<(N & { fullName: string })[]> {
  const ids = new Set<number>();
  for (const ns of namespaces) for (const id of ns.traversalIds) ids.add(id);
  const known = new Map<number, string>(namespaces.map((ns) => [ns.id, ns.name]));
  const missing = [...ids].filter((id) => !known.has(id));
  if (missing.length) {
    const rows = await db().namespace.findMany({ where: { id: { in: missing } }, select: { id: true, name: true } });
    for (const r of rows) known.set(r.id, r.name);
  }
  return namespaces.map((ns) => {
    const chain = ns.kind === 'group' && ns.traversalIds.length ? ns.traversalIds : [ns.id];
    return { ...ns, fullName: chain.map((id) => known.get(id) ?? '').join(' / ') };
  });
}

/** Projects (with their namespace loaded) as ProjectRecords. */
export async function toProjectRecords(projects: (Project & { namespace: Namespace })[]): Promise<ProjectRecord[]> {
  const unique = [...new Map(projects.map((p) => [p.namespace.id, p.namespace])).values()];
  const named = new Map((await withFullNames(unique)).map((ns) => [ns.id, ns]));
  return projects.map((p) => ({ ...p, namespace: named.get(p.namespaceId)! }));
}

/** Loads projects by id, keeping the order of `ids`. */
export async function loadProjectRecords(ids: number[]): Promise<ProjectRecord[]> {
  if (!ids.length) return [];
  const rows = await db().project.findMany({ where: { id: { in: ids } }, include: { namespace: true } });
  const byId = new Map((await toProjectRecords(rows)).map((p) => [p.id, p]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export async function loadGroupRecords(ids: number[]): Promise<NamespaceRecord[]> {
  if (!ids.length) return [];
  const rows = await db().namespace.findMany({ where: { id: { in: ids } } });
  const byId = new Map((await withFullNames(rows)).map((g) => [g.id, g]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
