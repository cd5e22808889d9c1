'use client';
// A rule's recent webhook deliveries (GET /runners/alert_rules/:id/deliveries): the event, its status, the
// receiver's response code, the attempts and the next retry of one that has not gone through yet.
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { formatDateTime, timeAgo } from '../shared/format';
import type { AlertDelivery, AlertRule } from '@/lib/client/fleet-alerts';
import { useAlertDeliveries } from './use-fleet-alerts';

const STATUS: Record<AlertDelivery['status'], { label: string; tone: BadgeTone }> = {
  delivered: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  pending: { label: 'Pending', tone: 'warning' },
};
const EVENT: Record<AlertDelivery['event'], string> = { fired: 'Alert fired', resolved: 'Alert resolved', test: 'Test' };

function Deliveries({ rule }: { rule: AlertRule }) {
  const deliveries = useAlertDeliveries(rule.id);
  if (deliveries.isPending) return <LoadingState label="Loading deliveries…" />;
  if (deliveries.error) return <ErrorState title="Could not load the deliveries" error={deliveries.error} onRetry={() => deliveries.refetch()} />;
  if (!deliveries.data.items.length)
    return (
      <EmptyState title="No deliveries yet" compact>
        The webhook is called when the alert fires or resolves, or when you send a test.
      </EmptyState>
    );
  return (
    <ul aria-label={`Webhook deliveries of ${rule.name}`} className="divide-y divide-slate-100 rounded-md border border-slate-200">
      {deliveries.data.items.map((d) => (
        <li key={d.id} className="flex flex-col gap-1 p-3">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={STATUS[d.status].tone}>{STATUS[d.status].label}</Badge>
            <span className="font-medium text-slate-900">{EVENT[d.event]}</span>
            <time dateTime={d.created_at} className="text-xs text-slate-600">
              {formatDateTime(d.created_at)}
            </time>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-700">
            <dt className="text-slate-600">Response</dt>
            <dd>{d.response_status ? `HTTP ${d.response_status}` : 'None'}</dd>
            <dt className="text-slate-600">Attempts</dt>
            <dd>{d.attempts}</dd>
            {d.next_attempt_at && d.status !== 'delivered' && (
              <>
                <dt className="text-slate-600">Next retry</dt>
                <dd>
                  <time dateTime={d.next_attempt_at} title={formatDateTime(d.next_attempt_at) ?? undefined}>
                    {timeAgo(d.next_attempt_at)}
                  </time>
                </dd>
              </>
            )}
            {d.error && (
              <>
                <dt className="text-slate-600">Error</dt>
                <dd className="break-words [overflow-wrap:anywhere]">{d.error}</dd>
              </>
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}

export function DeliveriesDialog({ rule, onClose }: { rule: AlertRule | null; onClose: () => void }) {
  return (
    <Dialog
      open={rule !== null}
      title={rule ? `Webhook deliveries: ${rule.name}` : 'Webhook deliveries'}
      onClose={onClose}
      size="wide"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {rule && (
        <div className="flex flex-col gap-3">
          <p className="break-words [overflow-wrap:anywhere]">
            The last deliveries to <span className="font-mono text-xs text-slate-900">{rule.webhook_url}</span>, newest first.
          </p>
          <Deliveries rule={rule} />
        </div>
      )}
    </Dialog>
  );
}
