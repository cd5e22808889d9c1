'use client';
// The menu's "Runners" for users who are not administrators. GitLab has no instance-wide runner list for
// them: a group's runners are on the group's Runners page (Maintainers and up) and a project's in its
// CI/CD settings. The disclosure lists the groups and projects the user maintains and leads there.
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, Server } from 'lucide-react';
import Link from 'next/link';
import { useId, useState } from 'react';
import { cn } from '../ui/cn';
import { Spinner } from '../ui/states';
import { useApi } from './session-provider';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { Group, Project } from '@/lib/client/types';

const SHOWN = 8;
const MAINTAINER = 40;

function useMaintained(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['navigation', 'maintained'],
    enabled,
    queryFn: async () => {
      const [groups, projects] = await Promise.all([
        api.getPage<Group>('/groups', { min_access_level: MAINTAINER, order_by: 'path', per_page: SHOWN }),
        api.getPage<Project>('/projects', { membership: true, min_access_level: MAINTAINER, order_by: 'path', sort: 'asc', per_page: SHOWN }),
      ]);
      return { groups, projects };
    },
  });
}

const linkClass = 'block truncate rounded-md px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900';

export function MaintainedRunners({ pathname }: { pathname: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const data = useMaintained(open);
  const here = /\/-\/(runners|settings\/ci_cd)(\/|$)/.test(pathname);
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className={cn(
          'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
          here ? 'text-indigo-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
        )}
      >
        <Server aria-hidden className="size-4 shrink-0" />
        <span className="flex-1 text-left">Runners</span>
        <ChevronDown aria-hidden className={cn('size-4 shrink-0 text-slate-400 transition-transform', open && 'rotate-180')} />
      </button>
      {open && (
        <div id={panelId} className="ml-7 mt-1 flex flex-col gap-2 border-l border-slate-200 pl-2">
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
      )}
    </li>
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
