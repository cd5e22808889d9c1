'use client';
// The add/edit dialog of an alert rule: the fields follow the kind (a threshold in its unit, a window, a
// runner type or a tag), then the webhook. The API validates: its messages show under their fields and
// focus goes to the first refused one; a refusal without a field shows above the buttons.
import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Dialog } from '../ui/dialog';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { InlineError } from '../ui/states';
import { toast } from '../ui/toast';
import { ALERT_KINDS, draftOf, KINDS, ruleParams, type AlertKind, type AlertRule, type RuleDraft, type RuleParam } from '@/lib/client/fleet-alerts';
import { RUNNER_TYPES } from '@/lib/client/runner-filters';
import { validationMessages } from '@/lib/client/validation';
import { useSaveRule } from './use-fleet-alerts';

// Field order on screen: the first refused one in this order gets focus.
const FIELD_ORDER: RuleParam[] = ['name', 'kind', 'threshold', 'window_minutes', 'runner_type', 'tag', 'webhook_url', 'webhook_secret', 'enabled'];
const FIELD_NAMES: Record<RuleParam, string> = {
  name: 'Name',
  kind: 'Condition',
  threshold: 'Threshold',
  window_minutes: 'Window',
  runner_type: 'Runner type',
  tag: 'Tag',
  enabled: 'Enabled',
  webhook_url: 'Webhook URL',
  webhook_secret: 'Secret token',
};

const label = 'text-sm font-medium text-slate-700';
const help = 'text-xs text-slate-600';

interface ControlProps {
  id: string;
  name: string;
  className: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** `onSaved`: after a save closed the dialog (the page may move focus when the trigger is gone). */
export function RuleFormDialog({ open, rule, onClose, onSaved }: { open: boolean; rule: AlertRule | null; onClose: () => void; onSaved?: () => void }) {
  return (
    <Dialog open={open} title={rule ? `Edit alert rule` : 'Add alert rule'} onClose={onClose}>
      {/* A fresh form per opening: the draft starts from the rule (or the defaults) each time. */}
      {open && <RuleForm key={rule?.id ?? 'new'} rule={rule} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function RuleForm({ rule, onClose, onSaved }: { rule: AlertRule | null; onClose: () => void; onSaved?: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(rule));
  const save = useSaveRule();
  const formRef = useRef<HTMLFormElement>(null);
  const spec = KINDS[draft.kind];
  const errors = validationMessages(save.error);
  const byField = errors.byAttribute as Partial<Record<RuleParam, string[]>>;
  // Messages for fields this kind does not show (or unknown ones) stay visible as general ones.
  const shownFields = new Set<RuleParam>(['name', 'kind', 'enabled', 'webhook_url', 'webhook_secret']);
  if (spec.threshold) shownFields.add('threshold');
  if (spec.window) shownFields.add('window_minutes');
  if (spec.runnerType) shownFields.add('runner_type');
  if (spec.tag) shownFields.add('tag');
  const general = [
    ...errors.general,
    ...Object.entries(byField)
      .filter(([f]) => !shownFields.has(f as RuleParam))
      .map(([f, msgs]) => `${FIELD_NAMES[f as RuleParam] ?? f} ${msgs!.join(', ')}`),
  ];

  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setKind = (kind: AlertKind) =>
    setDraft((d) => ({ ...d, kind, threshold: '', window_minutes: '', runner_type: KINDS[kind].runnerType?.defaultType ?? '', tag: '' }));

  // One field: its label, the control, an optional help line and the API's messages, wired together.
  const row = (name: RuleParam, text: ReactNode, control: (props: ControlProps) => ReactNode, helpText?: ReactNode) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className={label}>
        {text}
      </label>
      {control({
        id: `${id}-${name}`,
        name,
        className: inputClass,
        'aria-invalid': !!byField[name] || undefined,
        'aria-describedby': [byField[name] && `${id}-${name}-error`, helpText && `${id}-${name}-help`].filter(Boolean).join(' ') || undefined,
      })}
      {helpText && (
        <p id={`${id}-${name}-help`} className={help}>
          {helpText}
        </p>
      )}
      <FieldError id={`${id}-${name}-error`} messages={byField[name]?.map((m) => `${FIELD_NAMES[name]} ${m}`) ?? null} />
    </div>
  );
  // A text input bound to a field of the draft (called by `row` as a plain function, not mounted as a component).
  const input =
    (key: 'name' | 'threshold' | 'window_minutes' | 'tag' | 'webhook_url' | 'webhook_secret', extra: InputHTMLAttributes<HTMLInputElement> = {}) =>
    (props: ControlProps) => (
      <input
        {...props}
        autoComplete="off"
        {...extra}
        className={cn(props.className, extra.className)}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value)}
      />
    );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { id: rule?.id, params: ruleParams(draft, rule) },
      {
        onSuccess: (saved) => {
          toast.success(rule ? `Alert rule '${saved.name}' was updated.` : `Alert rule '${saved.name}' was created.`);
          onClose();
          onSaved?.();
        },
        onError: (err) => {
          const refused = validationMessages(err).byAttribute;
          const first = FIELD_ORDER.find((f) => refused[f] && shownFields.has(f));
          // After the render that marks the fields.
          requestAnimationFrame(() => {
            const el = first ? formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`) : null;
            (
              el ??
              formRef.current?.querySelector<HTMLElement>('[role="alert"]') ??
              formRef.current?.querySelector<HTMLElement>('button[type="submit"]')
            )?.focus();
          });
        },
      },
    );
  }

  return (
    <form ref={formRef} aria-label={rule ? 'Edit alert rule' : 'Add alert rule'} noValidate onSubmit={submit} className="flex flex-col gap-4">
      {row('name', 'Name', input('name', { 'data-autofocus': true } as InputHTMLAttributes<HTMLInputElement>))}
      {row('kind', 'Condition', (props) => (
        <select {...props} value={draft.kind} onChange={(e) => setKind(e.target.value as AlertKind)}>
          {ALERT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KINDS[k].label}
            </option>
          ))}
        </select>
      ))}
      {spec.runnerType &&
        row('runner_type', 'Runner type', (props) => (
          <select {...props} value={draft.runner_type} onChange={(e) => set('runner_type', e.target.value as RuleDraft['runner_type'])}>
            <option value="">All runners</option>
            {RUNNER_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        ))}
      {spec.threshold &&
        row('threshold', spec.threshold.label, input('threshold', { inputMode: 'decimal', placeholder: spec.threshold.placeholder, className: 'sm:w-40' }))}
      {spec.window &&
        row(
          'window_minutes',
          'Window (minutes)',
          input('window_minutes', { inputMode: 'numeric', placeholder: String(spec.window.defaultMinutes), className: 'sm:w-40' }),
          `${draft.kind === 'went_offline' ? 'Runners that went offline within this many minutes' : 'Jobs that started within this many minutes'}; ${spec.window.defaultMinutes} when left empty.`,
        )}
      {spec.tag === 'required' && row('tag', 'Tag', input('tag'), 'Fires when no online runner has this tag.')}
      {spec.tag === 'optional' && row('tag', 'Tag (optional)', input('tag'), 'Only runners with this tag are counted.')}
      <fieldset className="flex flex-col gap-3 border-t border-slate-200 pt-4">
        <legend className="sr-only">Webhook</legend>
        {row(
          'webhook_url',
          'Webhook URL (optional)',
          input('webhook_url', { type: 'url', placeholder: 'https://chat.example.com/hooks/…' }),
          'Receives a POST when the alert fires and when it resolves.',
        )}
        {row(
          'webhook_secret',
          'Secret token (optional)',
          input('webhook_secret', { type: 'password', autoComplete: 'new-password' }),
          rule?.webhook_secret_set
            ? 'A secret token is set. Leave empty to keep it.'
            : 'Sent with each delivery, so the receiver can tell it comes from Runway. Stored, never shown again.',
        )}
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => set('enabled', e.target.checked)}
          className="size-4 rounded border-slate-300 text-indigo-600"
        />
        Enabled
      </label>
      {general.length > 0 && <InlineError>{general.join('. ')}</InlineError>}
      <div className="mt-2 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : rule ? 'Save changes' : 'Add alert rule'}
        </Button>
      </div>
    </form>
  );
}
