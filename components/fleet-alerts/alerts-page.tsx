'use client';
// /admin/runners/alerts: fleet alerts (issue 33). The rules the background worker checks, each rule's webhook
// deliveries, and the alert history; the banner on top while alerts fire. The history's tab and pages live
// in the URL (?state=firing&page=2, ?rules_page=2).
import Link from 'next/link';
import { buttonClass } from '../ui/button';
import { adminCrumbs, Breadcrumbs } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { AlertHistory } from './alert-history';
import { FiringAlertsBanner } from './firing-banner';
import { RulesSection } from './rules-section';
import type { HistoryFilter } from './use-fleet-alerts';

const FILTERS: HistoryFilter[] = ['all', 'firing', 'resolved'];

export function FleetAlertsPage() {
  const { params, update } = useUrlState();
  const raw = params.get('state');
  const state = FILTERS.find((f) => f === raw) ?? 'all';
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Runners', href: '/admin/runners' }, { label: 'Fleet alerts' }])} />
      <FiringAlertsBanner />
      <PageHeader
        title="Fleet alerts"
        description="Rules the background worker checks every minute against the runner fleet. A rule whose condition becomes true fires an alert, shown on the runner pages and sent to its webhook, until the condition is false again."
        actions={
          <Link href="/admin/runners/dashboard" prefetch={false} className={buttonClass('secondary')}>
            Fleet dashboard
          </Link>
        }
      />
      <RulesSection page={pageParam(params, 'rules_page')} onPageChange={(p) => update({ rules_page: p > 1 ? p : undefined })} />
      <AlertHistory
        state={state}
        page={pageParam(params)}
        onChange={(s, p) => update({ state: s === 'all' ? undefined : s, page: p > 1 ? p : undefined }, { replace: false })}
      />
    </div>
  );
}
