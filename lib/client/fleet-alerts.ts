// Fleet alerts (issue 33, Runway extension /runners/alert_rules and /runners/alerts): the shapes the API
// answers, and the words the dashboard puts on them: a rule's condition ("Online share of instance runners
// below 80 %"), a measured value in the rule's unit, an alert's duration.
import { formatDuration } from './fleet-format';
import type { RunnerType } from './types';

export const ALERT_KINDS = ['online_share_below', 'went_offline', 'tag_without_online_runner', 'queue_wait_p95_above'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertRule {
  id: number;
  name: string;
  kind: AlertKind;
  threshold: number | null;
  window_minutes: number | null;
  runner_type: RunnerType | null;
  tag: string | null;
  enabled: boolean;
  webhook_url: string | null;
  webhook_secret_set: boolean;
  state: 'ok' | 'firing' | 'unknown';
  last_value: number | null;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface FleetAlert {
  id: number;
  rule: { id: number; name: string; kind: AlertKind };
  state: 'firing' | 'resolved';
  value: number | null;
  threshold: number | null;
  message: string | null;
  fired_at: string;
  resolved_at: string | null;
}

export interface AlertDelivery {
  id: number;
  alert_id: number | null;
  event: 'fired' | 'resolved' | 'test';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** The parameters of POST and PUT /runners/alert_rules (webhook_secret is write-only). */
export const RULE_PARAMS = ['name', 'kind', 'threshold', 'window_minutes', 'runner_type', 'tag', 'enabled', 'webhook_url', 'webhook_secret'] as const;
export type RuleParam = (typeof RULE_PARAMS)[number];

/** What each kind asks for in the form, its unit and the API's defaults. */
export interface KindSpec {
  label: string;
  /** The threshold field's label; none for a kind without a threshold. */
  threshold?: { label: string; unit: string; placeholder: string };
  window?: { defaultMinutes: number };
  /** The runner type the form starts with ('' for every runner), as the API defaults it. */
  runnerType?: { defaultType: RunnerType | '' };
  /** The tag: what the rule watches (required), or a filter of the runners counted (optional). */
  tag?: 'required' | 'optional';
}

export const KINDS: Record<AlertKind, KindSpec> = {
  online_share_below: {
    label: 'Online share of runners below',
    threshold: { label: 'Online share below (%)', unit: '%', placeholder: '80' },
    runnerType: { defaultType: 'instance_type' },
    tag: 'optional',
  },
  went_offline: {
    label: 'Runners went offline',
    threshold: { label: 'More than (runners)', unit: 'runners', placeholder: '3' },
    window: { defaultMinutes: 10 },
    runnerType: { defaultType: '' },
    tag: 'optional',
  },
  tag_without_online_runner: { label: 'Tag with no online runner', runnerType: { defaultType: '' }, tag: 'required' },
  queue_wait_p95_above: {
    label: 'Job queue wait p95 above',
    threshold: { label: 'Queue wait p95 above (seconds)', unit: 's', placeholder: '300' },
    window: { defaultMinutes: 60 },
  },
};

const TYPE_WORDS: Record<RunnerType, string> = { instance_type: 'instance', group_type: 'group', project_type: 'project' };
/** "instance runners", "runners tagged docker" (a tag narrows any kind, as the API counts). */
const runnersOf = (type: RunnerType | null, tag: string | null, one = false) => {
  const noun = one ? 'runner' : 'runners';
  return `${type ? `${TYPE_WORDS[type]} ${noun}` : noun}${tag ? ` tagged ${tag}` : ''}`;
};
const minutes = (n: number) => `${n} ${n === 1 ? 'minute' : 'minutes'}`;
const number = (n: number | null | undefined) => (n === null || n === undefined ? '?' : String(Number(n.toFixed(1))));

type Condition = Pick<AlertRule, 'kind' | 'threshold' | 'window_minutes' | 'runner_type' | 'tag'>;

/** The rule's condition in words: "Online share of instance runners below 80 %". */
export function describeCondition(rule: Condition): string {
  switch (rule.kind) {
    case 'online_share_below':
      return `Online share of ${runnersOf(rule.runner_type, rule.tag)} below ${number(rule.threshold)} %`;
    case 'went_offline':
      return `More than ${number(rule.threshold)} ${runnersOf(rule.runner_type, rule.tag, rule.threshold === 1)} went offline in ${minutes(rule.window_minutes ?? 10)}`;
    case 'tag_without_online_runner':
      return `No online ${runnersOf(rule.runner_type, null, true)} with the tag ${rule.tag ?? '?'}`;
    case 'queue_wait_p95_above':
      return `Job queue wait p95 above ${formatDuration(rule.threshold)} over the last ${minutes(rule.window_minutes ?? 60)}`;
  }
}

/** A measured value in the rule's unit: "62 %", "4 runners", "0 online runners", "6 min 40 s". */
export function formatValue(kind: AlertKind, value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  switch (kind) {
    case 'online_share_below':
      return `${number(value)} %`;
    case 'went_offline':
      return `${number(value)} ${value === 1 ? 'runner' : 'runners'}`;
    case 'tag_without_online_runner':
      return `${number(value)} online ${value === 1 ? 'runner' : 'runners'}`;
    case 'queue_wait_p95_above':
      return formatDuration(value);
  }
}

/** An alert in one sentence: the API's message, or one made from the rule's kind and the values. */
export function describeAlert(alert: FleetAlert): string {
  if (alert.message) return alert.message;
  const value = formatValue(alert.rule.kind, alert.value);
  const threshold = formatValue(alert.rule.kind, alert.threshold);
  switch (alert.rule.kind) {
    case 'online_share_below':
      return `Online share is ${value}, below ${threshold}`;
    case 'went_offline':
      return `${value} went offline, more than ${alert.threshold ?? '?'}`;
    case 'tag_without_online_runner':
      return `${alert.rule.name}: no online runner`;
    case 'queue_wait_p95_above':
      return `Job queue wait p95 is ${value}, above ${threshold}`;
  }
}

/** The banner's sentence: "2 fleet alerts are firing: <the newest one>". */
export function firingSummary(total: number, newest: FleetAlert | undefined): string {
  const head = total === 1 ? '1 fleet alert is firing' : `${total} fleet alerts are firing`;
  return newest ? `${head}: ${describeAlert(newest)}` : head;
}

/** How long an alert fired: until it resolved, or until `now` while it still fires. */
export function alertDuration(alert: Pick<FleetAlert, 'fired_at' | 'resolved_at'>, now = Date.now()): string {
  const end = alert.resolved_at ? new Date(alert.resolved_at).getTime() : now;
  const seconds = Math.max(0, (end - new Date(alert.fired_at).getTime()) / 1000);
  return formatDuration(seconds < 1 ? 0 : Math.round(seconds));
}

/** The form's values as the API takes them: only the fields the kind uses; blanks left out (the API's defaults). */
export interface RuleDraft {
  name: string;
  kind: AlertKind;
  threshold: string;
  window_minutes: string;
  runner_type: RunnerType | '';
  tag: string;
  enabled: boolean;
  webhook_url: string;
  /** Empty: unchanged (an edit) or none (a new rule). */
  webhook_secret: string;
}

/** `original`: the rule being edited (null for a new one). */
export function ruleParams(draft: RuleDraft, original: Pick<AlertRule, 'webhook_url'> | null): Record<string, unknown> {
  const spec = KINDS[draft.kind];
  const out: Record<string, unknown> = { name: draft.name.trim(), kind: draft.kind, enabled: draft.enabled };
  if (spec.threshold) out.threshold = draft.threshold.trim();
  if (spec.window && draft.window_minutes.trim()) out.window_minutes = draft.window_minutes.trim();
  // A kind without them clears them (an edit from another kind must not keep a filter the form no longer shows).
  out.runner_type = spec.runnerType ? draft.runner_type || null : null;
  out.tag = spec.tag ? draft.tag.trim() : '';
  // The API shows a stored URL with its credentials masked: an edit sends the URL only when it was changed
  // (sending the masked text back would store it). Cleared, it removes the webhook.
  const url = draft.webhook_url.trim();
  if (original ? url !== (original.webhook_url ?? '') : url) out.webhook_url = url;
  if (draft.webhook_secret) out.webhook_secret = draft.webhook_secret;
  return out;
}

export function draftOf(rule: AlertRule | null): RuleDraft {
  if (!rule)
    return {
      name: '',
      kind: 'online_share_below',
      threshold: '',
      window_minutes: '',
      runner_type: 'instance_type',
      tag: '',
      enabled: true,
      webhook_url: '',
      webhook_secret: '',
    };
  return {
    name: rule.name,
    kind: rule.kind,
    threshold: rule.threshold === null ? '' : String(rule.threshold),
    window_minutes: rule.window_minutes === null ? '' : String(rule.window_minutes),
    runner_type: rule.runner_type ?? '',
    tag: rule.tag ?? '',
    enabled: rule.enabled,
    webhook_url: rule.webhook_url ?? '',
    webhook_secret: '',
  };
}
