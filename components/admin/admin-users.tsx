'use client';
// /admin/users: every user with GitLab's state badges, and the admin's actions per row: block or unblock,
// unlock (a sign-in lock), make or remove admin, delete (after a confirmation; a refusal such as "sole
// owner" offers GitLab's "Delete user and contributions", i.e. hard_delete).
import { UserRound } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { DashboardList } from '../namespaces/dashboard-list';
import { adminCrumbs } from '../ui/breadcrumbs';
import { formatDate } from '../tokens/format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { InlineError } from '../ui/states';
import { useAdminUserList, useDeleteUser, useUserAction, type AdminUser } from './use-admin-lists';
import { errorText } from '@/lib/client/error-text';

const ACTIONS = [
  { action: 'block', label: 'Block', when: (u: AdminUser) => u.state !== 'blocked' },
  { action: 'unblock', label: 'Unblock', when: (u: AdminUser) => u.state === 'blocked' },
  { action: 'unlock', label: 'Unlock', when: (u: AdminUser) => !!u.locked },
  { action: 'make_admin', label: 'Make admin', when: (u: AdminUser) => !u.is_admin },
  { action: 'remove_admin', label: 'Remove admin', when: (u: AdminUser) => u.is_admin },
] as const;

export function AdminUsers() {
  const act = useUserAction();
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const columns = useMemo<ColumnDef<AdminUser>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row: { original: u } }) => (
          <div className="flex flex-col">
            <Link href={`/admin/users/${u.id}/edit`} className="font-medium text-slate-900 hover:underline">
              {u.name}
            </Link>
            <span className="text-xs text-slate-500">@{u.username}</span>
          </div>
        ),
      },
      { id: 'email', header: 'Email', cell: ({ row }) => row.original.email },
      {
        id: 'state',
        header: 'State',
        cell: ({ row: { original: u } }) => (
          <div className="flex gap-1">
            {u.is_admin && <Badge tone="info">Admin</Badge>}
            {u.state === 'blocked' && <Badge tone="danger">Blocked</Badge>}
            {u.locked && <Badge tone="warning">Locked</Badge>}
          </div>
        ),
      },
      { id: 'created', header: 'Created on', cell: ({ row }) => formatDate(row.original.created_at) },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: u } }) => (
          <div className="flex justify-end gap-1" role="group" aria-label={`Actions for ${u.username}`}>
            <Link
              href={`/admin/users/${u.id}/edit`}
              className="inline-flex h-8 items-center rounded-md px-3 text-xs font-medium text-slate-600 hover:bg-slate-100"
              aria-label={`Edit ${u.username}`}
            >
              Edit
            </Link>
            {ACTIONS.filter((a) => a.when(u)).map((a) => (
              <Button key={a.action} variant="ghost" size="sm" disabled={act.isPending} onClick={() => act.mutate({ user: u, action: a.action })}>
                {a.label}
              </Button>
            ))}
            <Button variant="dangerGhost" size="sm" onClick={() => setDeleting(u)}>
              Delete
            </Button>
          </div>
        ),
      },
    ],
    [act],
  );
  const refused = remove.error !== null;
  return (
    <>
      {act.error && <InlineError>{errorText(act.error)}</InlineError>}
      <DashboardList
        title="Users"
        icon={UserRound}
        crumbs={adminCrumbs([{ label: 'Users' }])}
        description="Every user on this instance."
        noun="users"
        none="Users you create show up here."
        columns={columns}
        actions={
          <Link
            href="/admin/users/new"
            className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
          >
            New user
          </Link>
        }
        useList={useAdminUserList}
      />
      <ConfirmDialog
        target={deleting === null ? null : { user: deleting, hardDelete: refused }}
        title="Delete user"
        confirmLabel={refused ? 'Delete user and contributions' : 'Delete user'}
        pendingLabel="Deleting…"
        mutation={remove}
        onClose={() => setDeleting(null)}
      >
        <p>
          You are about to permanently delete the user <strong className="text-slate-900">{deleting?.name}</strong> (@{deleting?.username}). Their personal
          projects and tokens go with them.
          {refused && ' Deleting the user and contributions also removes the groups they alone own.'}
        </p>
      </ConfirmDialog>
    </>
  );
}
