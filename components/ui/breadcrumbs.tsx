// The one breadcrumb trail every dashboard page shows above its title, as GitLab's top of page does:
// parents as links, separated by a chevron, the current page last (aria-current). On a narrow screen the
// trail wraps rather than widening the page.
import Link from 'next/link';
import { ChevronRight } from 'lucide-react';
import { groupHref, projectHref } from '@/lib/client/paths';

export interface Crumb {
  label: string;
  /** Omitted: plain text (the current page, or a parent without a page such as a user's namespace). */
  href?: string;
}

/** `items`: from the outermost parent to the current page; the last item is the current page. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-0.5 text-sm text-slate-600">
        {items.map((c, i) => {
          const last = i === items.length - 1;
          return (
            <li key={i} className="flex min-w-0 items-center gap-1">
              {i > 0 && <ChevronRight aria-hidden className="size-3.5 shrink-0 text-slate-400" />}
              {last ? (
                <span aria-current="page" className="break-all font-medium text-slate-900">
                  {c.label}
                </span>
              ) : c.href ? (
                <Link href={c.href} className="break-all rounded-sm hover:text-slate-900 hover:underline">
                  {c.label}
                </Link>
              ) : (
                <span className="break-all">{c.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Crumbs for each group of a namespace path (acme, acme/platform, ...); a personal namespace is plain text. */
export function namespaceCrumbs(namespacePath: string | null, personal = false): Crumb[] {
  const segments = namespacePath ? namespacePath.split('/') : [];
  return segments.map((label, i) => ({ label, href: personal ? undefined : groupHref(segments.slice(0, i + 1).join('/')) }));
}

/**
 * A page inside a project: its groups, the project (linking to its page), then `trail`.
 * `personal`: the project's namespace is a user (no page to link to).
 */
export function projectCrumbs(fullPath: string, trail: Crumb[], opts: { name?: string; personal?: boolean } = {}): Crumb[] {
  const parts = fullPath.split('/');
  return [
    ...namespaceCrumbs(parts.slice(0, -1).join('/') || null, opts.personal),
    { label: opts.name ?? parts[parts.length - 1], href: projectHref(fullPath) },
    ...trail,
  ];
}

/** An Admin area page: "Admin area" (linking to /admin), then `trail`. */
export const adminCrumbs = (trail: Crumb[]): Crumb[] => [{ label: 'Admin area', href: '/admin' }, ...trail];
