'use client';
// /dashboard/projects: the projects the user is a member of (administrators: every project).
import { FolderGit2 } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useCurrentUser } from '../dashboard/session-provider';
import { formatDate } from '../shared/format';
import { effectiveLevel, OWNER, roleName } from '@/lib/client/access-levels';
import { projectHref } from '@/lib/client/paths';
import type { ProjectWithAccess } from '@/lib/client/types';
import { DashboardList } from './dashboard-list';
import { NameCell } from './name-cell';
import { useProjectAccessLevel, useProjectList } from './use-namespaces';
import { VisibilityBadge } from './visibility-badge';

const columns: ColumnDef<ProjectWithAccess>[] = [
  {
    id: 'name',
    header: 'Project',
    cell: ({ row: { original: p } }) => (
      <NameCell href={projectHref(p.path_with_namespace)} prefix={p.namespace.full_path} name={p.name} description={p.description} />
    ),
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <VisibilityBadge visibility={row.original.visibility} /> },
  { id: 'role', header: 'Your role', cell: ({ row }) => <RoleCell project={row.original} /> },
  { id: 'activity', header: 'Last activity', cell: ({ row }) => formatDate(row.original.last_activity_at ?? row.original.created_at) },
];

/**
 * The viewer's effective role, as the project page's "Your role": GitLab's `permissions` name only direct
 * and group memberships, so a role through a group shared into the project is read from the members API
 * (one cached read per row; none when the membership is Owner already).
 */
function RoleCell({ project }: { project: ProjectWithAccess }) {
  const known = effectiveLevel(project.permissions);
  const access = useProjectAccessLevel(project.path_with_namespace, project, known < OWNER);
  const name = roleName(access.level);
  if (name) return <>{name}</>;
  return <span className="text-slate-400">{access.isPending ? '…' : '—'}</span>;
}

export function ProjectsList() {
  const { admin } = useCurrentUser();
  return (
    <DashboardList
      title="Projects"
      icon={FolderGit2}
      crumbs={[{ label: 'Your work' }, { label: 'Projects' }]}
      description={admin ? 'Every project on this instance (you are an administrator).' : 'Projects you are a member of, directly or through a group.'}
      noun="projects"
      none="Projects you create or are added to show up here."
      columns={columns}
      useList={useProjectList}
    />
  );
}
