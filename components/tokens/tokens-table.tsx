'use client';
import { KeyRound } from 'lucide-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Button } from '../ui/button';
import { DataTable } from '../ui/data-table';
import type { PersonalAccessToken } from '@/lib/client/types';
import { formatDate, formatDateTime } from '../shared/format';
import { TokenStateBadge } from './token-state';
import { PER_PAGE, useTokenList, type TokenStateFilter } from './use-tokens';
import { muted } from '../ui/muted';

const column = createColumnHelper<PersonalAccessToken>();

export function TokensTable(props: {
  page: number;
  state: TokenStateFilter;
  onPageChange: (page: number) => void;
  onRevoke: (token: PersonalAccessToken) => void;
}) {
  const list = useTokenList(props.page, props.state);
  const { onRevoke } = props;
  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Token name',
        cell: (c) => (
          <div>
            <p className="font-medium text-slate-900">{c.getValue()}</p>
            {c.row.original.description && <p className="text-xs text-slate-500">{c.row.original.description}</p>}
          </div>
        ),
      }),
      column.accessor('scopes', {
        header: 'Scopes',
        cell: (c) => (
          <div className="flex flex-wrap gap-1">
            {c.getValue().map((s) => (
              <code key={s} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                {s}
              </code>
            ))}
          </div>
        ),
      }),
      column.accessor('created_at', { header: 'Created', cell: (c) => <span title={c.getValue()}>{formatDate(c.getValue())}</span> }),
      column.accessor('last_used_at', {
        header: 'Last used',
        cell: (c) => (c.getValue() ? <span title={c.getValue() ?? ''}>{formatDateTime(c.getValue())}</span> : muted('Never')),
      }),
      column.accessor('expires_at', { header: 'Expires', cell: (c) => formatDate(c.getValue()) ?? muted('Never') }),
      column.display({ id: 'state', header: 'State', cell: (c) => <TokenStateBadge token={c.row.original} /> }),
      column.display({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: (c) =>
          c.row.original.active ? (
            <div className="text-right">
              <Button variant="dangerGhost" size="sm" onClick={() => onRevoke(c.row.original)}>
                Revoke
              </Button>
            </div>
          ) : null,
      }),
    ],
    [onRevoke],
  );

  const data = list.data;
  return (
    <DataTable
      label="Personal access tokens"
      cards
      columns={columns}
      data={data?.items}
      getRowId={(t) => String(t.id)}
      pagination={{
        page: props.page,
        perPage: data?.perPage ?? PER_PAGE,
        totalPages: data?.totalPages,
        total: data?.total,
        hasNext: data?.nextPage !== undefined,
      }}
      onPageChange={props.onPageChange}
      isLoading={list.isPending}
      isFetching={list.isPlaceholderData}
      error={list.error}
      onRetry={() => list.refetch()}
      empty={{
        title: props.state === 'inactive' ? 'No inactive tokens' : 'No personal access tokens',
        description: props.state === 'inactive' ? 'Revoked and expired tokens appear here.' : 'Add a token to use the API from scripts and tools.',
        icon: KeyRound,
      }}
    />
  );
}
