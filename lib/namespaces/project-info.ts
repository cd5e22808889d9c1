// A project and its namespace as one JSON value of a SQL statement (runner details, job lists): what
// BasicProjectDetails shows, read in the statement that reads the rows it belongs to.
import { sql } from '../db/sql';

/** What BasicProjectDetails reads of a project (and its namespace). */
export interface RunnerProjectInfo {
  id: number;
  description: string | null;
  name: string;
  path: string;
  fullPath: string;
  defaultBranch: string | null;
  createdAt: Date;
  lastActivityAt: Date;
  namespace: { id: number; name: string; path: string; kind: string; fullPath: string; parentId: number | null; fullName: string };
}

// A namespace's human full name ("Acme / Platform"), as namespaces/records.ts withFullNames builds it:
// group names along traversal_ids; a personal namespace's own name.
export const NAMESPACE_FULL_NAME = sql`CASE WHEN ns.kind = 'group' AND cardinality(ns.traversal_ids) > 0
    THEN (SELECT string_agg(COALESCE(a.name, ''), ' / ' ORDER BY t.ord)
            FROM unnest(ns.traversal_ids) WITH ORDINALITY AS t(id, ord) LEFT JOIN namespaces a ON a.id = t.id)
    ELSE ns.name END`;

/** RunnerProjectInfo of `projects p JOIN namespaces ns ON ns.id = p.namespace_id`, as JSON. */
export const PROJECT_INFO_JSON = sql`json_build_object(
  'id', p.id, 'description', p.description, 'name', p.name, 'path', p.path, 'fullPath', p.full_path,
  'defaultBranch', p.default_branch, 'createdAt', p.created_at, 'lastActivityAt', p.last_activity_at,
  'namespace', json_build_object('id', ns.id, 'name', ns.name, 'path', ns.path, 'kind', ns.kind::text,
                                 'fullPath', ns.full_path, 'parentId', ns.parent_id, 'fullName', ${NAMESPACE_FULL_NAME}))`;

/** JSON carries timestamps as ISO strings: back to Dates. */
export function hydrateProjectInfo(p: RunnerProjectInfo): RunnerProjectInfo {
  p.createdAt = new Date(p.createdAt);
  p.lastActivityAt = new Date(p.lastActivityAt);
  return p;
}
