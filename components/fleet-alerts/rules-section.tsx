'use client';
// The alert rules: name and condition in words, state (Firing / OK / Not checked yet, with the last value
// and when it was checked), an enabled switch, whether a webhook is set, and the row's actions (Edit, Send
// test, Deliveries, Delete). Below the md breakpoint each rule is a card (DataTable's stacked rows).
import { createColumnHelper } from '@tanstack/react-table';
import { Bell, BellPlus, History, Pencil, Send, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { ActionButton, ActionGroup } from '../ui/action-group';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable, type Columns } from '../ui/data-table';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { toast } from '../ui/toast';
import { Toggle } from '../ui/toggle';
import { formatDateTime, timeAgo } from '../shared/format';
import { describeCondition, formatValue, type AlertRule } from '@/lib/client/fleet-alerts';
import { errorText } from '@/lib/client/error-text';
import { DeliveriesDialog } from './deliveries-dialog';
import { RuleFormDialog } from './rule-form';
import { RULES_PER_PAGE, useAlertRules, useDeleteRule, useTestWebhook, useToggleRule } from './use-fleet-alerts';

const col = createColumnHelper<AlertRule>();

export function RuleState({ rule }: { rule: AlertRule }) {
  const badge =
    rule.state === 'firing' ? <Badge tone="danger">Firing</Badge> : rule.state === 'ok' ? <Badge tone="success">OK</Badge> : <Badge>Not checked yet</Badge>;
  return (
    <div className="flex flex-col items-start gap-0.5">
      {badge}
      {rule.last_checked_at && (
        <span className="text-xs text-slate-600">
          {formatValue(rule.kind, rule.last_value)},{' '}
          <time dateTime={rule.last_checked_at} title={formatDateTime(rule.last_checked_at) ?? undefined}>
            checked {timeAgo(rule.last_checked_at)}
          </time>
        </span>
      )}
    </div>
  );
}

function EnabledSwitch({ rule }: { rule: AlertRule }) {
  const toggle = useToggleRule();
  // Shown as asked while the change is saved; the refetch after it brings the stored value.
  const checked = toggle.isPending && toggle.variables ? toggle.variables.enabled : rule.enabled;
  return (
    <Toggle
      hideLabel
      label={`Enabled: ${rule.name}`}
      checked={checked}
      busy={toggle.isPending}
      onChange={(enabled) =>
        toggle.mutate(
          { id: rule.id, enabled },
          {
            onSuccess: (r) => toast.success(`Alert rule '${r.name}' was ${r.enabled ? 'enabled' : 'disabled'}.`),
            onError: (e) => toast.error(errorText(e, 'The rule could not be changed.')),
          },
        )
      }
    />
  );
}

export function RulesSection({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const rules = useAlertRules(page);
  const [editing, setEditing] = useState<{ rule: AlertRule | null } | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<AlertRule | null>(null);
  const remove = useDeleteRule();
  const test = useTestWebhook();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const sendTest = (rule: AlertRule) =>
    test.mutate(rule, {
      onSuccess: (d) =>
        toast.success(
          d.status === 'delivered'
            ? `Test delivered to the webhook of '${rule.name}' (HTTP ${d.response_status}).`
            : d.status === 'failed'
              ? `The test delivery of '${rule.name}' failed${d.error ? `: ${d.error}` : ''}.`
              : `Test delivery of '${rule.name}' queued.`,
        ),
      onError: (e) => toast.error(errorText(e, 'The test could not be sent.')),
    });

  const columns: Columns<AlertRule> = [
    col.accessor('name', {
      header: 'Rule',
      cell: ({ row }) => (
        <div className="flex min-w-0 flex-col whitespace-normal">
          <span className="font-medium text-slate-900">{row.original.name}</span>
          <span className="text-xs text-slate-600">{describeCondition(row.original)}</span>
        </div>
      ),
      meta: { className: 'max-md:w-full md:max-w-sm' },
    }),
    col.accessor('state', { header: 'State', cell: ({ row }) => <RuleState rule={row.original} />, meta: { cardLabel: true } }),
    col.accessor('enabled', { header: 'Enabled', cell: ({ row }) => <EnabledSwitch rule={row.original} />, meta: { cardLabel: true } }),
    col.accessor('webhook_url', {
      header: 'Webhook',
      cell: ({ row }) => (row.original.webhook_url ? 'Yes' : 'No'),
      meta: { cardLabel: true },
    }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => {
        const rule = row.original;
        return (
          <ActionGroup label={`Actions for alert rule ${rule.name}`}>
            <ActionButton label={`Edit ${rule.name}`} tooltip="Edit" icon={Pencil} onClick={() => setEditing({ rule })} />
            {rule.webhook_url && (
              <>
                <ActionButton
                  label={`Send test to the webhook of ${rule.name}`}
                  tooltip="Send test"
                  icon={Send}
                  disabled={test.isPending}
                  onClick={() => sendTest(rule)}
                />
                <ActionButton label={`Webhook deliveries of ${rule.name}`} tooltip="Recent deliveries" icon={History} onClick={() => setDeliveriesOf(rule)} />
              </>
            )}
            <ActionButton label={`Delete ${rule.name}`} tooltip="Delete" icon={Trash2} danger onClick={() => setDeleting(rule)} />
          </ActionGroup>
        );
      },
      meta: { className: 'text-right max-md:w-full max-md:text-left' },
    }),
  ];

  const addRef = useRef<HTMLButtonElement>(null);
  const open = () => setEditing({ rule: null });
  // The first rule replaces the empty state, and its Add button (the dialog's trigger) with it: focus goes to
  // the Add button above the table instead of falling back to the page.
  const afterSave = () =>
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active.tagName === 'MAIN') addRef.current?.focus();
    });

  return (
    <section aria-labelledby="alert-rules-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="alert-rules-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900">
          Alert rules
        </h2>
        {!!rules.data?.items.length && (
          <Button ref={addRef} onClick={open}>
            <BellPlus aria-hidden className="size-4" />
            Add alert rule
          </Button>
        )}
      </div>
      {rules.isPending ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <LoadingState label="Loading alert rules…" />
        </div>
      ) : rules.error && !rules.data ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <ErrorState title="Could not load the alert rules" error={rules.error} onRetry={() => rules.refetch()} />
        </div>
      ) : !rules.data?.items.length && page === 1 ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <EmptyState
            title="No alert rules yet"
            icon={Bell}
            action={
              <Button onClick={open}>
                <BellPlus aria-hidden className="size-4" />
                Add alert rule
              </Button>
            }
          >
            Add a rule to be told when the fleet needs attention: too few online runners, runners going offline, a tag no online runner serves, or jobs waiting
            too long.
          </EmptyState>
        </div>
      ) : (
        <DataTable
          label="Alert rules"
          columns={columns}
          data={rules.data?.items}
          getRowId={(r) => String(r.id)}
          pagination={{
            page,
            perPage: RULES_PER_PAGE,
            total: rules.data?.total,
            totalPages: rules.data?.totalPages,
            hasNext: rules.data?.nextPage !== undefined,
          }}
          onPageChange={onPageChange}
          isFetching={rules.isPlaceholderData}
          empty={{ title: 'No alert rules on this page' }}
          stacked
        />
      )}
      <RuleFormDialog open={editing !== null} rule={editing?.rule ?? null} onClose={() => setEditing(null)} onSaved={afterSave} />
      <DeliveriesDialog rule={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
      <ConfirmDialog
        target={deleting}
        title="Delete alert rule?"
        confirmLabel="Delete alert rule"
        pendingLabel="Deleting…"
        mutation={remove}
        onClose={() => setDeleting(null)}
        onDone={() => {
          const name = deleting?.name;
          setDeleting(null);
          toast.success(`Alert rule '${name}' was deleted.`);
          // The row and its Delete button are gone: the section's heading is the place to go on from.
          requestAnimationFrame(() => headingRef.current?.focus());
        }}
      >
        {deleting && (
          <p>
            The rule <strong className="font-semibold text-slate-900">{deleting.name}</strong> ({describeCondition(deleting)}) is deleted: it is no longer
            checked and its webhook is no longer called.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
