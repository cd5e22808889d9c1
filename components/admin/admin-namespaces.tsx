'use client';
// /admin/groups and /admin/projects: every group or project, each linking to its page, and "Delete" after
// GitLab's typed confirmation (the full path, exactly).
import { FolderGit2, Users } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useId, useMemo, useState } from 'react';
import { DashboardList, type DashboardListProps } from '../namespaces/dashboard-list';
import { adminCrumbs } from '../ui/breadcrumbs';
import { NameCell } from '../namespaces/name-cell';
import { useGroupList, useProjectList } from '../namespaces/use-namespaces';
import { formatDate } from '../shared/format';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { inputClass } from '../ui/input';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { Group, ProjectWithAccess } from '@/lib/client/types';
import { useDeleteNamespace } from './use-admin-lists';

interface Row {
  id: number;
  name: string;
  fullPath: string;
  parentPath?: string;
  description: string | null;
  href: string;
  createdAt: string;
}

const NOUN = { groups: 'group', projects: 'project' } as const;

const groupRow = (g: Group): Row => ({
  id: g.id,
  name: g.name,
  fullPath: g.full_path,
  parentPath: g.full_path.split('/').slice(0, -1).join('/') || undefined,
  description: g.description,
  href: groupHref(g.full_path),
  createdAt: g.created_at,
});

const projectRow = (p: ProjectWithAccess): Row => ({
  id: p.id,
  name: p.name,
  fullPath: p.path_with_namespace,
  parentPath: p.namespace.full_path,
  description: p.description,
  href: projectHref(p.path_with_namespace),
  createdAt: p.created_at,
});

function DeleteDialog({ kind, target, onClose }: { kind: 'groups' | 'projects'; target: Row | null; onClose: () => void }) {
  const remove = useDeleteNamespace(kind);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const noun = NOUN[kind];
  const matches = target !== null && typed === target.fullPath;
  return (
    <ConfirmDialog
      target={target}
      title={`Delete ${noun}`}
      confirmLabel={`Delete ${noun}`}
      pendingLabel="Deleting…"
      mutation={remove}
      confirmDisabled={!matches}
      onClose={() => {
        setTyped('');
        onClose();
      }}
    >
      <p>
        You are about to delete the {noun} <strong className="text-slate-900">{target?.name}</strong> and everything in it. This cannot be undone.
      </p>
      <label htmlFor={inputId} className="mt-3 block">
        Enter the following to confirm: <code className="rounded bg-slate-100 px-1 font-mono text-slate-900">{target?.fullPath}</code>
      </label>
      <input id={inputId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" className={`${inputClass} mt-1.5`} />
    </ConfirmDialog>
  );
}

interface ListProps<T> {
  kind: 'groups' | 'projects';
  title: string;
  useList: DashboardListProps<T & { id: number }>['useList'];
  toRow: (item: T) => Row;
}

function AdminNamespaceList<T extends { id: number }>({ kind, title, useList, toRow }: ListProps<T>) {
  const [deleting, setDeleting] = useState<Row | null>(null);
  const columns = useMemo<ColumnDef<T>[]>(
    () => [
      {
        id: 'name',
        header: NOUN[kind] === 'group' ? 'Group' : 'Project',
        cell: ({ row }) => {
          const r = toRow(row.original);
          return <NameCell href={r.href} prefix={r.parentPath} name={r.name} description={r.description} />;
        },
      },
      { id: 'created', header: 'Created on', cell: ({ row }) => formatDate(toRow(row.original).createdAt) },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) => {
          const r = toRow(row.original);
          return (
            <div className="flex justify-end">
              <Button variant="dangerGhost" size="sm" aria-label={`Delete ${r.fullPath}`} onClick={() => setDeleting(r)}>
                Delete
              </Button>
            </div>
          );
        },
      },
    ],
    [kind, toRow],
  );
  return (
    <>
      <DashboardList
        title={title}
        icon={kind === 'groups' ? Users : FolderGit2}
        crumbs={adminCrumbs([{ label: title }])}
        description={`Every ${NOUN[kind]} on this instance.`}
        noun={kind}
        none={`${title} created on this instance show up here.`}
        columns={columns}
        useList={useList}
      />
      <DeleteDialog kind={kind} target={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

export const AdminGroups = () => <AdminNamespaceList kind="groups" title="Groups" useList={useGroupList} toRow={groupRow} />;
export const AdminProjects = () => <AdminNamespaceList kind="projects" title="Projects" useList={useProjectList} toRow={projectRow} />;
