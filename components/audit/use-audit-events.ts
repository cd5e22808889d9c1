'use client';
// Audit events through /api/v4: one page of a source (the instance's, or a runner's), keyed by its filters.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import type { AuditEvent } from '@/lib/client/types';

export const AUDIT_PER_PAGE = 20;

export interface AuditFilters {
  page: number;
  entity_type?: string;
  entity_id?: string;
  created_after?: string;
  created_before?: string;
}

export function useAuditEvents(source: string, filters: AuditFilters) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.auditEvents(source, { ...filters }),
    queryFn: () => api.getPage<AuditEvent>(source, { ...filters, per_page: AUDIT_PER_PAGE }),
    placeholderData: keepPreviousData,
  });
}
