'use client';
// /admin/users: every user with GitLab's state badges, and the admin's actions per row: block or unblock,
// unlock (a sign-in lock), make or remove admin, delete (after a confirmation; a refusal such as "sole
// owner" offers GitLab's "Delete user and contributions", i.e. hard_delete).
import { Ban, CircleCheck, LockOpen, Pencil, ShieldMinus, ShieldPlus, Trash2, UserRound } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { DashboardList } from '../namespaces/dashboard-list';
import { adminCrumbs } from '../ui/breadcrumbs';
import { formatDate } from '../shared/format';
import { Badge } from '../ui/badge';
import { ActionButton, ActionGroup } from '../ui/action-group';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { InlineError } from '../ui/states';
import { useAdminUserList, useDeleteUser, useUserAction, type AdminUser, type UserAction } from './use-admin-lists';
import { LockEnds } from './user-lock';
import { errorText } from '@/lib/client/error-text';

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
          <div className="flex flex-wrap items-center gap-1">
            {u.is_admin && <Badge tone="info">Admin</Badge>}
            {u.state === 'blocked' && <Badge tone="danger">Blocked</Badge>}
            {u.locked && <Badge tone="warning">Locked</Badge>}
            {u.locked && u.locked_until && <LockEnds until={u.locked_until} />}
          </div>
        ),
      },
      { id: 'created', header: 'Created on', cell: ({ row }) => formatDate(row.original.created_at) },
      {
        id: 'actions',
        meta: { className: 'text-right max-sm:text-left' },
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: u } }) => {
          const run = (action: UserAction) => act.mutate({ user: u, action });
          // Block and Unblock (and Make and Remove admin) are one button whose name changes, as Pause and
          // Resume are: the pressed button stays where it was, focused, for a keyboard user.
          return (
            <ActionGroup label={`Actions for ${u.username}`}>
              <ActionButton href={`/admin/users/${u.id}/edit`} label={`Edit ${u.username}`} tooltip="Edit" icon={Pencil} />
              {u.state === 'blocked' ? (
                <ActionButton key="block" label="Unblock" tooltip="Unblock" icon={CircleCheck} disabled={act.isPending} onClick={() => run('unblock')} />
              ) : (
                <ActionButton key="block" label="Block" tooltip="Block" icon={Ban} disabled={act.isPending} onClick={() => run('block')} />
              )}
              {u.locked && <ActionButton label="Unlock" tooltip="Unlock" icon={LockOpen} disabled={act.isPending} onClick={() => run('unlock')} />}
              {/* One button whose name follows the role, so focus stays on it when it flips. */}
              <ActionButton
                key="admin"
                label={u.is_admin ? 'Remove admin' : 'Make admin'}
                tooltip={u.is_admin ? 'Remove admin' : 'Make admin'}
                icon={u.is_admin ? ShieldMinus : ShieldPlus}
                disabled={act.isPending}
                onClick={() => run(u.is_admin ? 'remove_admin' : 'make_admin')}
              />
              <ActionButton label="Delete" tooltip="Delete user" icon={Trash2} danger onClick={() => setDeleting(u)} />
            </ActionGroup>
          );
        },
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
