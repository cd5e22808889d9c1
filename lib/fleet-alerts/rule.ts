// The four kinds of fleet alert rule: their defaults, the checks of a rule's parameters (GitLab's
// validation shape, {"message": {"field": ["..."]}}), and the sentence an alert says.
import type { RunnerType } from '../db/generated/client';

export const ALERT_KINDS = ['online_share_below', 'went_offline', 'tag_without_online_runner', 'queue_wait_p95_above'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const RULE_STATES = ['ok', 'firing', 'unknown'] as const;
export const ALERT_STATES = ['firing', 'resolved'] as const;

export const MAX_WINDOW_MINUTES = 1440;
export const NAME_MAX_LENGTH = 255;
const TAG_MAX_LENGTH = 255;
const SECRET_MAX_LENGTH = 255;
const URL_MAX_LENGTH = 2048;

/** The window a kind uses when none is given (online share and tag rules look at now, with no window). */
export function defaultWindow(kind: AlertKind): number | null {
  if (kind === 'went_offline') return 10;
  if (kind === 'queue_wait_p95_above') return 60;
  return null;
}

/** A rule's settings as stored (the webhook secret apart). */
export interface RuleSettings {
  name: string;
  kind: AlertKind;
  threshold: number | null;
  windowMinutes: number | null;
  runnerType: RunnerType | null;
  tag: string | null;
  enabled: boolean;
  webhookUrl: string | null;
}

/** Field errors of a rule's settings, GitLab's way: an empty object when it is valid. */
export function ruleErrors(r: RuleSettings, secret: string | null | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!r.name.trim()) add('name', "can't be blank");
  if ([...r.name].length > NAME_MAX_LENGTH) add('name', `is too long (maximum is ${NAME_MAX_LENGTH} characters)`);
  if (r.kind === 'tag_without_online_runner') {
    if (!r.tag?.trim()) add('tag', "can't be blank");
  } else if (r.threshold === null) add('threshold', "can't be blank");
  if (r.tag !== null && [...r.tag].length > TAG_MAX_LENGTH) add('tag', `is too long (maximum is ${TAG_MAX_LENGTH} characters)`);
  if (r.threshold !== null) {
    if (r.kind === 'online_share_below' && (r.threshold < 0 || r.threshold > 100)) add('threshold', 'must be between 0 and 100');
    else if (r.threshold < 0) add('threshold', 'must be greater than or equal to 0');
  }
  if (r.windowMinutes !== null && (!Number.isInteger(r.windowMinutes) || r.windowMinutes < 1 || r.windowMinutes > MAX_WINDOW_MINUTES)) {
    add('window_minutes', `must be between 1 and ${MAX_WINDOW_MINUTES}`);
  }
  if (r.webhookUrl !== null && r.webhookUrl.length > URL_MAX_LENGTH) add('webhook_url', `is too long (maximum is ${URL_MAX_LENGTH} characters)`);
  if (secret && [...secret].length > SECRET_MAX_LENGTH) add('webhook_secret', `is too long (maximum is ${SECRET_MAX_LENGTH} characters)`);
  return errors;
}

const TYPE_WORDS: Record<RunnerType, string> = { instance_type: 'instance', group_type: 'group', project_type: 'project' };

/** "instance runners tagged docker", "runners" */
function runnersPhrase(r: Pick<RuleSettings, 'runnerType' | 'tag'>, singular = false): string {
  const noun = singular ? 'runner' : 'runners';
  const typed = r.runnerType ? `${TYPE_WORDS[r.runnerType]} ${noun}` : noun;
  return r.tag && r.tag.length ? `${typed} tagged ${r.tag}` : typed;
}

/** 62.5 -> "62.5", 62 -> "62", 61.999 -> "62" */
export const figure = (n: number) => String(Math.round(n * 10) / 10);

/** The human sentence of an alert at its measured value. */
export function alertMessage(r: Pick<RuleSettings, 'kind' | 'threshold' | 'windowMinutes' | 'runnerType' | 'tag'>, value: number | null): string {
  const t = r.threshold ?? 0;
  const v = value ?? 0;
  const window = r.windowMinutes ?? defaultWindow(r.kind);
  switch (r.kind) {
    case 'online_share_below':
      return `Online share of ${runnersPhrase(r)} is ${figure(v)} %, below ${figure(t)} %`;
    case 'went_offline':
      return `${figure(v)} ${runnersPhrase(r)} went offline in the last ${window} minutes, more than ${figure(t)}`;
    case 'tag_without_online_runner':
      return `No online ${runnersPhrase({ runnerType: r.runnerType, tag: null }, true)} has the tag ${r.tag}`;
    case 'queue_wait_p95_above':
      return `Job queue wait p95 is ${figure(v)} s over the last ${window} minutes, above ${figure(t)} s`;
  }
}

/** Whether a measured value fires the rule (no value, e.g. no runner or no job to measure, never fires). */
export function isFiring(kind: AlertKind, threshold: number | null, value: number | null): boolean {
  if (value === null) return false;
  switch (kind) {
    case 'online_share_below':
      return value < (threshold ?? 0);
    case 'went_offline':
    case 'queue_wait_p95_above':
      return value > (threshold ?? 0);
    case 'tag_without_online_runner':
      return value === 0;
  }
}
