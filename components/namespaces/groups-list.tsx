'use client';
// /dashboard/groups: the groups the user is a member of (administrators: every group).
import { Users } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useCurrentUser } from '../dashboard/session-provider';
import { formatDate } from '../shared/format';
import { groupHref } from '@/lib/client/paths';
import type { Group } from '@/lib/client/types';
import { DashboardList } from './dashboard-list';
import { NameCell } from './name-cell';
import { useGroupList } from './use-namespaces';
import { VisibilityBadge } from './visibility-badge';

export const groupColumns: ColumnDef<Group>[] = [
  {
    id: 'name',
    header: 'Group',
    cell: ({ row: { original: g } }) => <NameCell href={groupHref(g.full_path)} name={g.full_name} description={g.description} />,
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <VisibilityBadge visibility={row.original.visibility} /> },
  { id: 'created', header: 'Created', cell: ({ row }) => formatDate(row.original.created_at) },
];

export function GroupsList() {
  const { admin } = useCurrentUser();
  return (
    <DashboardList
      title="Groups"
      icon={Users}
      crumbs={[{ label: 'Your work' }, { label: 'Groups' }]}
      description={admin ? 'Every group on this instance (you are an administrator).' : 'Groups you are a member of, directly or through a parent group.'}
      noun="groups"
      none="Groups you create or are added to show up here."
      columns={groupColumns}
      useList={useGroupList}
    />
  );
}
