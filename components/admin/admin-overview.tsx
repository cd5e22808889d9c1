'use client';
// /admin: the instance at a glance (projects, users, groups, runners) and the ways into the admin pages.
import { FolderGit2, ScrollText, Server, UserRound, Users } from 'lucide-react';
import Link from 'next/link';
import { LinkCards } from '../namespaces/link-cards';
import { Breadcrumbs } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { ErrorState } from '../ui/states';
import { useAdminCounts, type CountKey } from './use-admin-counts';

const CARDS: Array<{ key: CountKey; label: string; href?: string; action?: string }> = [
  { key: 'projects', label: 'Projects', href: '/admin/projects', action: 'View projects' },
  { key: 'users', label: 'Users', href: '/admin/users', action: 'View users' },
  { key: 'groups', label: 'Groups', href: '/admin/groups', action: 'View groups' },
  { key: 'runners', label: 'Runners', href: '/admin/runners', action: 'View runners' },
];

const numberFormat = new Intl.NumberFormat('en-US');

export function AdminOverview() {
  const counts = useAdminCounts();
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={[{ label: 'Admin area' }, { label: 'Overview' }]} />
      <PageHeader title="Admin area" description="Instance overview: what this Runway holds." />
      {counts.error ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <ErrorState title="Could not load the counts" error={counts.error} onRetry={() => counts.refetch()} />
        </div>
      ) : (
        <ul aria-label="Instance statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {CARDS.map((card) => {
            const value = counts.data?.[card.key];
            return (
              <li key={card.key} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`count-${card.key}`}>
                <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{card.label}</span>
                <span className="text-2xl font-semibold text-slate-900" aria-busy={counts.isPending}>
                  {counts.isPending ? <span className="text-slate-300">…</span> : value === undefined ? 'Not counted' : numberFormat.format(value)}
                </span>
                {card.href && (
                  <Link href={card.href} className="text-xs font-medium text-indigo-700 hover:underline">
                    {card.action}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-slate-900">Administration</h2>
        <LinkCards
          label="Admin pages"
          links={[
            { href: '/admin/users', label: 'Users', hint: 'Create, edit, block, promote and delete users.', icon: UserRound },
            { href: '/admin/groups', label: 'Groups', hint: 'Every group on this instance; delete one.', icon: Users },
            { href: '/admin/projects', label: 'Projects', hint: 'Every project on this instance; delete one.', icon: FolderGit2 },
            { href: '/admin/runners', label: 'Runners', hint: 'Every instance, group and project runner: status, tags, pause, edit, delete.', icon: Server },
            {
              href: '/admin/audit_logs',
              label: 'Audit events',
              hint: 'Who changed which runner or registration token, from where and when.',
              icon: ScrollText,
            },
          ]}
        />
      </section>
    </div>
  );
}
