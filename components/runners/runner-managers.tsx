'use client';
// The runner's managers (one per machine that used its token): not paginated by the API. On a phone each
// manager is a card (DataTable `cards`), its facts under their column names: six columns would scroll sideways.
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../ui/data-table';
import { formatDateTime } from '../shared/format';
import type { RunnerManager } from '@/lib/client/types';
import { ManagerStatusBadge, UpgradeStatusBadge } from './runner-badges';
import { useRunnerManagers } from './use-runners';
import { muted } from '../ui/muted';

const column = createColumnHelper<RunnerManager>();
const orDash = (v: string | null) => v || muted('—');

const columns = [
  column.accessor('system_id', { header: 'System ID', cell: (c) => <code className="text-xs">{c.getValue()}</code> }),
  column.display({ id: 'status', header: 'Status', cell: (c) => <ManagerStatusBadge manager={c.row.original} /> }),
  column.accessor('version', {
    header: 'Version',
    cell: (c) => (
      <div className="flex flex-col items-start gap-1">
        <span>
          {orDash(c.getValue())}
          {c.row.original.revision && <span className="block text-xs text-slate-500">{c.row.original.revision}</span>}
        </span>
        <UpgradeStatusBadge status={c.row.original.upgrade_status} />
      </div>
    ),
  }),
  column.display({
    id: 'platform',
    header: 'Platform',
    cell: (c) => orDash([c.row.original.platform, c.row.original.architecture].filter(Boolean).join(' / ') || null),
  }),
  column.accessor('ip_address', { header: 'IP address', cell: (c) => orDash(c.getValue()) }),
  column.accessor('contacted_at', { header: 'Last contact', cell: (c) => formatDateTime(c.getValue()) ?? muted('Never') }),
];

export function RunnerManagers({ runnerId }: { runnerId: number }) {
  const managers = useRunnerManagers(runnerId);
  return (
    <DataTable
      label="Runner managers"
      cards
      columns={columns}
      data={managers.data}
      getRowId={(m) => String(m.id)}
      pagination={{ page: 1, perPage: managers.data?.length ?? 0, hasNext: false }}
      onPageChange={() => undefined}
      isLoading={managers.isPending}
      error={managers.error}
      onRetry={() => managers.refetch()}
      empty={{ title: 'No managers yet', description: 'A manager appears when a machine running gitlab-runner first asks for jobs with this runner’s token.' }}
    />
  );
}
