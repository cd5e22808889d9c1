// The dashboard's catch-all addresses as GitLab lays them out: `/<namespace>/<project>[/-/<sub-page>]` for
// projects (namespaces nest), `/groups/<full_path>[/-/<sub-page>]` for groups; `/-/` separates the path
// from the page inside it. First segments that are Runway's (or GitLab's) own routes are never namespaces.
export const RESERVED_TOP_LEVEL = new Set(['-', 'admin', 'api', 'dashboard', 'groups', 'help', 'sign-in', 'users', 'explore', 'search', 'projects']);

export interface NamespacedRoute {
  /** The project's or group's full path, e.g. `acme/platform/ci/pipeline-tools`. */
  fullPath: string;
  /** Segments after `/-/` (empty for the overview). */
  page: string[];
  /** Segments in the full path (1: a top-level namespace). */
  depth: number;
}

/** A route segment as typed (Next.js hands dynamic segments over still percent-encoded). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Splits catch-all segments at `-`; null when they cannot name a project or group page. */
export function parseNamespacedRoute(rawSegments: string[], opts: { reservedFirst?: boolean } = {}): NamespacedRoute | null {
  const segments = rawSegments.map(decodeSegment);
  const split = segments.indexOf('-');
  const path = split === -1 ? segments : segments.slice(0, split);
  const page = split === -1 ? [] : segments.slice(split + 1);
  if (!path.length || path.some((s) => !s || s === '.' || s === '..')) return null;
  if (opts.reservedFirst && RESERVED_TOP_LEVEL.has(path[0].toLowerCase())) return null;
  return { fullPath: path.join('/'), page, depth: path.length };
}

export const projectHref = (fullPath: string, page?: string) => `/${fullPath}${page ? `/-/${page}` : ''}`;
export const groupHref = (fullPath: string, page?: string) => `/groups/${fullPath}${page ? `/-/${page}` : ''}`;

/** The pages inside a project (after `/-/`) the dashboard serves; null for any other. */
export type ProjectPage =
  | { kind: 'merge_requests' }
  | { kind: 'merge_request'; iid: number; tab: 'overview' | 'commits' }
  | { kind: 'commit'; sha: string }
  | { kind: 'commits'; ref: string | null }
  | { kind: 'branches' }
  | { kind: 'ci_cd_settings' }
  | { kind: 'general_settings' };

export function parseProjectPage(page: string[]): ProjectPage | null {
  const [first, second, third, ...rest] = page;
  if (first === 'merge_requests') {
    if (second === undefined) return { kind: 'merge_requests' };
    if (!/^[1-9]\d{0,9}$/.test(second) || Number(second) > 2147483647 || rest.length) return null;
    if (third === undefined) return { kind: 'merge_request', iid: Number(second), tab: 'overview' };
    return third === 'commits' ? { kind: 'merge_request', iid: Number(second), tab: 'commits' } : null;
  }
  if (first === 'settings' && second === 'ci_cd' && third === undefined) return { kind: 'ci_cd_settings' };
  // GitLab's Settings > General lives at /-/edit.
  if (first === 'edit' && second === undefined) return { kind: 'general_settings' };
  // GitLab's /-/commits/<ref>: the ref may hold slashes (feature/x); no ref is the default branch.
  if (first === 'commits') return { kind: 'commits', ref: second === undefined ? null : [second, third, ...rest].filter((s) => s !== undefined).join('/') };
  if (first === 'branches' && (second === undefined || second === 'all') && third === undefined) return { kind: 'branches' };
  if (first === 'commit' && second && third === undefined && /^[0-9a-f]{4,40}$/i.test(second)) return { kind: 'commit', sha: second.toLowerCase() };
  return null;
}

/**
 * The name of each segment of a group's or project's full path, from GitLab's full name (full_name,
 * name_with_namespace: "Acme / Web / Website" for acme/web/website). Group and project names hold no slash,
 * so the full name splits at " / " into one name a segment; where it does not (a user's name, heading a
 * personal project's full name, may hold " / "), the leading names are that one segment's, and with no full
 * name (not loaded yet) or one that still does not fit, the path's own segments stand in.
 */
export function segmentNames(fullPath: string, fullName?: string | null): string[] {
  const segments = fullPath.split('/');
  const names = fullName ? fullName.split(' / ') : [];
  if (names.length === segments.length && names.every(Boolean)) return names;
  if (segments.length === 2 && names.length > 2) return [names.slice(0, -1).join(' / '), names[names.length - 1]];
  return segments;
}
