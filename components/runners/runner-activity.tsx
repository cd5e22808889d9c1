'use client';
// A runner's Activity tab: its audit events (GET /runners/:id/audit_events), newest first; ?activity_page=.
import { AuditEventsTable } from '../audit/audit-events-table';
import { AUDIT_PER_PAGE, useAuditEvents } from '../audit/use-audit-events';

export function RunnerActivity({ runnerId, page, onPageChange }: { runnerId: number; page: number; onPageChange: (page: number) => void }) {
  const events = useAuditEvents(`/runners/${runnerId}/audit_events`, { page });
  const d = events.data;
  return (
    <AuditEventsTable
      label="Runner activity"
      data={d?.items}
      pagination={{ page, perPage: d?.perPage ?? AUDIT_PER_PAGE, total: d?.total, totalPages: d?.totalPages, hasNext: d?.nextPage !== undefined }}
      onPageChange={onPageChange}
      isLoading={events.isPending}
      isFetching={events.isFetching && !events.isPending}
      error={events.error}
      onRetry={() => events.refetch()}
      empty={{ title: 'No activity recorded', description: 'Changes to this runner (edits, pauses, token resets, projects) appear here.' }}
    />
  );
}
