'use client';
// The groups and projects a non-administrator maintains, under the menu's "Runners" (maintained-runners.tsx
// opens it). Loaded and fetched with the first opening, so it is off every page's first-load JavaScript.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Spinner } from '../ui/states';
import { useApi } from './session-provider';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { Group, Project } from '@/lib/client/types';

const SHOWN = 8;
const MAINTAINER = 40;
// The API orders groups by their own path only (`ci` before its parent `platform`): the panel reads this many
// and orders them by full path, segment by segment, so a parent group comes right before its subgroups.
const READ = 100;

/** Compares full paths segment by segment (`a/b` < `a/b/c` < `a/b-c`). */
export function byFullPath(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

function firstByPath<T>(page: { items: T[]; total?: number }, path: (item: T) => string) {
  return { items: [...page.items].sort((a, b) => byFullPath(path(a), path(b))).slice(0, SHOWN), total: page.total };
}

function useMaintained() {
  const api = useApi();
  return useQuery({
    queryKey: ['navigation', 'maintained'],
    queryFn: async () => {
      const [groups, projects] = await Promise.all([
        api.getPage<Group>('/groups', { min_access_level: MAINTAINER, order_by: 'path', per_page: READ }),
        api.getPage<Project>('/projects', { membership: true, min_access_level: MAINTAINER, order_by: 'path', sort: 'asc', per_page: READ }),
      ]);
      return { groups: firstByPath(groups, (g) => g.full_path), projects: firstByPath(projects, (p) => p.path_with_namespace) };
    },
  });
}

const linkClass = 'block truncate rounded-md px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900';

export function MaintainedRunnersPanel({ id, className }: { id: string; className: string }) {
  const data = useMaintained();
  return (
    <div id={id} className={className}>
      {data.isPending ? (
        <Spinner label="Loading your groups and projects" />
      ) : data.error ? (
        <p className="px-2 text-xs text-red-700">Could not load your groups and projects.</p>
      ) : !data.data.groups.items.length && !data.data.projects.items.length ? (
        <p className="px-2 text-xs text-slate-600">Runners are managed by the Maintainers of a group or project. You maintain none yet.</p>
      ) : (
        <>
          <Section title="Group runners" more={data.data.groups.total} shown={data.data.groups.items.length} moreHref="/dashboard/groups">
            {data.data.groups.items.map((g) => (
              <Link key={g.id} href={groupHref(g.full_path, 'runners')} className={linkClass} title={g.full_path}>
                {g.full_path}
              </Link>
            ))}
          </Section>
          <Section title="Project runners" more={data.data.projects.total} shown={data.data.projects.items.length} moreHref="/dashboard/projects">
            {data.data.projects.items.map((p) => (
              <Link key={p.id} href={`${projectHref(p.path_with_namespace, 'settings/ci_cd')}`} className={linkClass} title={p.path_with_namespace}>
                {p.path_with_namespace}
              </Link>
            ))}
          </Section>
        </>
      )}
    </div>
  );
}

function Section({ title, shown, more, moreHref, children }: { title: string; shown: number; more?: number; moreHref: string; children: React.ReactNode }) {
  if (!shown) return null;
  return (
    <div>
      <p className="px-2 pb-0.5 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</p>
      {children}
      {more !== undefined && more > shown && (
        <Link href={moreHref} className="block px-2 py-1 text-xs font-medium text-indigo-700 hover:underline">
          {more - shown} more…
        </Link>
      )}
    </div>
  );
}
