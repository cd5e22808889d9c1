// The one breadcrumb trail every dashboard page shows above its title, as GitLab's top of page does:
// parents as links, by name (a group's or project's name, never its path), separated by a chevron, the
// current page last (aria-current). On a narrow screen the trail wraps rather than widening the page.
import Link from 'next/link';
import { ChevronRight } from 'lucide-react';
import { groupHref, projectHref, segmentNames } from '@/lib/client/paths';
import type { Group, Project } from '@/lib/client/types';

export interface Crumb {
  label: string;
  /** Omitted: plain text (the current page, or a parent without a page such as a user's namespace). */
  href?: string;
}

/** `items`: from the outermost parent to the current page; the last item is the current page. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-0.5 text-sm text-slate-600 dark:text-slate-300">
        {items.map((c, i) => {
          const last = i === items.length - 1;
          return (
            <li key={i} className="flex min-w-0 items-center gap-1">
              {i > 0 && <ChevronRight aria-hidden className="size-3.5 shrink-0 text-slate-400" />}
              {last ? (
                <span aria-current="page" className="break-words font-medium text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">
                  {c.label}
                </span>
              ) : c.href ? (
                <Link href={c.href} className="break-words rounded-sm [overflow-wrap:anywhere] hover:text-slate-900 hover:underline dark:hover:text-white">
                  {c.label}
                </Link>
              ) : (
                <span className="break-words [overflow-wrap:anywhere]">{c.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * A group or project as its trail needs it: the full path, and GitLab's full name ("Acme / Web / Website",
 * the API's full_name or name_with_namespace) for the names of it and its parents. Without a full name (not
 * loaded yet) the path's segments stand in.
 */
export interface NamedPath {
  fullPath: string;
  fullName?: string | null;
  /** A project in a user's namespace: the user has no page here, so that crumb is plain text. */
  personal?: boolean;
}

export const groupNamedPath = (g: Pick<Group, 'full_path' | 'full_name'>): NamedPath => ({ fullPath: g.full_path, fullName: g.full_name });
export const projectNamedPath = (p: Pick<Project, 'path_with_namespace' | 'name_with_namespace' | 'namespace'>): NamedPath => ({
  fullPath: p.path_with_namespace,
  fullName: p.name_with_namespace,
  personal: p.namespace.kind === 'user',
});

/** A group and each of its parents (the group last, linking to its page), then `trail`. */
export function groupCrumbs(group: NamedPath, trail: Crumb[] = []): Crumb[] {
  const segments = group.fullPath.split('/');
  const names = segmentNames(group.fullPath, group.fullName);
  return [...segments.map((_, i) => ({ label: names[i], href: groupHref(segments.slice(0, i + 1).join('/')) })), ...trail];
}

/** A project's groups (or its user, as text), the project (linking to its page), then `trail`. */
export function projectCrumbs(project: NamedPath, trail: Crumb[] = []): Crumb[] {
  const segments = project.fullPath.split('/');
  const names = segmentNames(project.fullPath, project.fullName);
  const parents = segments.slice(0, -1).map((_, i) => ({
    label: names[i],
    href: project.personal ? undefined : groupHref(segments.slice(0, i + 1).join('/')),
  }));
  return [...parents, { label: names[names.length - 1], href: projectHref(project.fullPath) }, ...trail];
}

/** GitLab's "Settings" crumb of a project or group, linking to its General settings, then `trail`. */
export const settingsCrumbs = (kind: 'project' | 'group', fullPath: string, trail: Crumb[]): Crumb[] => [
  { label: 'Settings', href: kind === 'project' ? projectHref(fullPath, 'edit') : groupHref(fullPath, 'edit') },
  ...trail,
];

/** An Admin area page: "Admin area" (linking to /admin), then `trail`. */
export const adminCrumbs = (trail: Crumb[]): Crumb[] => [{ label: 'Admin area', href: '/admin' }, ...trail];
