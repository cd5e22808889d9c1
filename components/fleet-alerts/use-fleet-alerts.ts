'use client';
// The fleet alerts' reads and writes through /api/v4 (Runway extension): rules, alert history, a rule's
// webhook deliveries, and the firing alerts the banner shows (read again every minute: the background
// worker evaluates the rules, nothing tells the page when a state changes).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import type { AlertDelivery, AlertRule, FleetAlert } from '@/lib/client/fleet-alerts';

export const RULES_PER_PAGE = 20;
export const HISTORY_PER_PAGE = 10;
export const DELIVERIES_PER_PAGE = 10;
export const BANNER_REFRESH_MS = 60_000;

export type HistoryFilter = 'all' | 'firing' | 'resolved';

export const alertKeys = {
  all: ['fleet-alerts'] as const,
  rules: (page: number) => ['fleet-alerts', 'rules', page] as const,
  history: (state: HistoryFilter, page: number) => ['fleet-alerts', 'history', state, page] as const,
  firing: ['fleet-alerts', 'firing'] as const,
  deliveries: (ruleId: number) => ['fleet-alerts', 'deliveries', ruleId] as const,
};

export function useAlertRules(page: number) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.rules(page),
    queryFn: () => api.getPage<AlertRule>('/runners/alert_rules', { page, per_page: RULES_PER_PAGE }),
    placeholderData: keepPreviousData,
    refetchInterval: BANNER_REFRESH_MS,
  });
}

export function useAlertHistory(state: HistoryFilter, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.history(state, page),
    queryFn: () => api.getPage<FleetAlert>('/runners/alerts', { state: state === 'all' ? undefined : state, page, per_page: HISTORY_PER_PAGE }),
    placeholderData: keepPreviousData,
    refetchInterval: BANNER_REFRESH_MS,
  });
}

/** The firing alerts, newest first: the banner's count (X-Total) and its first sentence. */
export function useFiringAlerts(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.firing,
    queryFn: () => api.getPage<FleetAlert>('/runners/alerts', { state: 'firing', per_page: 1 }),
    refetchInterval: BANNER_REFRESH_MS,
    enabled,
    // A banner that cannot load says nothing: the page under it has its own states.
    retry: false,
  });
}

export function useAlertDeliveries(ruleId: number) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.deliveries(ruleId),
    queryFn: () => api.getPage<AlertDelivery>(`/runners/alert_rules/${ruleId}/deliveries`, { per_page: DELIVERIES_PER_PAGE }),
  });
}

/** Create (no id) or update a rule; every alert read is refreshed after. */
export function useSaveRule() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, params }: { id?: number; params: Record<string, unknown> }) =>
      id === undefined ? api.post<AlertRule>('/runners/alert_rules', params) : api.put<AlertRule>(`/runners/alert_rules/${id}`, params),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export function useToggleRule() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => api.put<AlertRule>(`/runners/alert_rules/${id}`, { enabled }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export function useDeleteRule() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: AlertRule) => api.delete(`/runners/alert_rules/${rule.id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export function useTestWebhook() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: AlertRule) => api.post<AlertDelivery>(`/runners/alert_rules/${rule.id}/test_webhook`),
    onSuccess: (_d, rule) => client.invalidateQueries({ queryKey: alertKeys.deliveries(rule.id) }),
  });
}
