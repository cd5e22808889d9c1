'use client';
// The fields GitLab's runner create and edit forms share (tags, run untagged, description, maintenance note,
// paused, protected, lock to current projects, maximum job timeout), with the API's messages beside them.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { Muted } from '../ui/muted';
import type { RunnerAccessLevel } from '@/lib/client/types';
import { validationMessages } from '@/lib/client/validation';

export type RunnerField = 'description' | 'tags' | 'run_untagged' | 'paused' | 'locked' | 'access_level' | 'maximum_timeout' | 'maintenance_note';

// API attribute -> form field; anything else is shown above the form.
const FIELD_OF: Record<string, RunnerField> = {
  description: 'description',
  tags_list: 'tags',
  tag_list: 'tags',
  run_untagged: 'run_untagged',
  paused: 'paused',
  active: 'paused',
  locked: 'locked',
  access_level: 'access_level',
  maximum_timeout: 'maximum_timeout',
  maintenance_note: 'maintenance_note',
};

export const FIELD_LABELS: Record<RunnerField, string> = {
  description: 'Runner description',
  tags: 'Tags',
  run_untagged: 'Run untagged jobs',
  paused: 'Paused',
  locked: 'Lock to current projects',
  access_level: 'Protected',
  maximum_timeout: 'Maximum job timeout',
  maintenance_note: 'Maintenance note',
};

export interface FormProblems {
  fields: Partial<Record<RunnerField, string[]>>;
  general: string[];
}

// Rails' human attribute names, for the full-message sentence POST /user/runners answers with.
const HUMAN_NAMES: Record<string, string> = {
  description: 'Description',
  tags_list: 'Tags list',
  maximum_timeout: 'Maximum timeout',
  maintenance_note: 'Maintenance note',
  access_level: 'Access level',
};

/** The API's messages placed on the form's fields; attributes the form lacks are shown above it. */
export function problemsFrom(error: unknown, local: FormProblems['fields'] = {}): FormProblems {
  const { byAttribute, general } = validationMessages(error, HUMAN_NAMES);
  const problems: FormProblems = { fields: { ...local }, general: [...general] };
  for (const [attr, messages] of Object.entries(byAttribute)) {
    const field = FIELD_OF[attr];
    if (field) problems.fields[field] = [...(problems.fields[field] ?? []), ...messages];
    else problems.general.push(...messages.map((m) => `${attr} ${m}`));
  }
  return problems;
}

export interface RunnerFormValues {
  description: string;
  tagList: string;
  runUntagged: boolean;
  paused: boolean;
  locked: boolean;
  accessLevel: RunnerAccessLevel;
  /** null when left empty (no maximum). */
  maximumTimeout: number | null;
  maintenanceNote: string;
}

/**
 * A runner form's problems (the mutation's error, or a local check) and its submit step: the values when
 * they pass the local check, else null with the problem shown.
 */
export function useRunnerFormState(mutation: { error: unknown; reset: () => void }, verb: string) {
  const [local, setLocal] = useState<FormProblems['fields']>({});
  // Bumped by each refused submit: after it renders, focus goes to the first field marked invalid.
  const [refusals, setRefusals] = useState(0);
  const form = useRef<HTMLFormElement | null>(null);
  const problems = problemsFrom(mutation.error, local);
  const read = (el: HTMLFormElement): RunnerFormValues | null => {
    form.current = el;
    const result = readRunnerForm(el);
    if ('problem' in result) {
      mutation.reset();
      setLocal(result.problem);
      setRefusals((n) => n + 1);
      return null;
    }
    setLocal({});
    return result.values;
  };
  // The API refused the values (its messages are on the fields now): the same focus move.
  const apiRefused = mutation.error ? mutation.error : null;
  useEffect(() => {
    if (!refusals && !apiRefused) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals, apiRefused]);
  return { problems, summary: summaryOf(problems, verb), read };
}

/**
 * The form's values, or every field the API's validations would refuse, with the API's messages (checked here,
 * all at once, so one save shows every message: a too-long tag and a 5-second timeout are both reported).
 */
export function readRunnerForm(form: HTMLFormElement): { values: RunnerFormValues } | { problem: FormProblems['fields'] } {
  const data = new FormData(form);
  const problem: FormProblems['fields'] = {};
  const add = (field: RunnerField, message: string) => (problem[field] ??= []).push(message);
  const tagText = String(data.get('tag_list') ?? '');
  const tags = tagText
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const long of tags.filter((t) => [...t].length > TAG_NAME_MAX_LENGTH)) add('tags', tagTooLong(long));
  if (new Set(tags).size > TAG_LIST_MAX_LENGTH) add('tags', `Too many tags specified. Please limit the number of tags to ${TAG_LIST_MAX_LENGTH}`);
  if (!tags.length && data.get('run_untagged') !== 'on') add('tags', 'can not be empty when runner is not allowed to pick untagged jobs');
  const timeoutText = String(data.get('maximum_timeout') ?? '').trim();
  if (timeoutText && !/^\d{1,9}$/.test(timeoutText)) add('maximum_timeout', 'must be a whole number of seconds');
  else if (timeoutText && Number(timeoutText) < MIN_TIMEOUT_SECONDS) add('maximum_timeout', 'needs to be at least 10 minutes');
  for (const [field, name] of [
    ['description', 'description'],
    ['maintenance_note', 'maintenance_note'],
  ] as const) {
    if ([...String(data.get(name) ?? '')].length > TEXT_MAX_LENGTH) add(field, `is too long (maximum is ${TEXT_MAX_LENGTH} characters)`);
  }
  if (Object.keys(problem).length) return { problem };
  return {
    values: {
      description: String(data.get('description') ?? ''),
      tagList: String(data.get('tag_list') ?? ''),
      runUntagged: data.get('run_untagged') === 'on',
      paused: data.get('paused') === 'on',
      locked: data.get('locked') === 'on',
      accessLevel: data.get('protected') === 'on' ? 'ref_protected' : 'not_protected',
      maximumTimeout: timeoutText ? Number(timeoutText) : null,
      maintenanceNote: String(data.get('maintenance_note') ?? ''),
    },
  };
}

/** GitLab's limit on one tag (Ci::Tag), checked before sending so the field says which tag is too long. */
export const TAG_NAME_MAX_LENGTH = 255;
/** GitLab's other runner validations (Ci::Runner): at most 50 tags, a timeout of 600 s or more, 1,024-character texts. */
const TAG_LIST_MAX_LENGTH = 50;
const MIN_TIMEOUT_SECONDS = 600;
const TEXT_MAX_LENGTH = 1024;
const tagTooLong = (tag: string) => `A tag can be at most ${TAG_NAME_MAX_LENGTH} characters; “${[...tag].slice(0, 20).join('')}…” has ${[...tag].length}.`;

/** "a, b ,,c" -> "a,b,c": the tags as the API will store them, to compare with the current ones. */
export const normalizedTags = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .join(',');

/** Problems as one sentence above the form: general messages, else which fields to check. */
export function summaryOf(problems: FormProblems, verb: string): string | null {
  if (problems.general.length) return problems.general.join(' ');
  const fields = Object.keys(problems.fields) as RunnerField[];
  if (!fields.length) return null;
  return `The runner was not ${verb}: check ${fields.map((f) => FIELD_LABELS[f].toLowerCase()).join(', ')}.`;
}

function Checkbox({
  name,
  label,
  hint,
  defaultChecked,
  problems,
}: {
  name: RunnerField | 'protected';
  label: string;
  hint: ReactNode;
  defaultChecked: boolean;
  problems?: string[];
}) {
  const hintId = `runner-${name}-hint`;
  const errorId = `runner-${name}-error`;
  return (
    <div>
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          name={name}
          defaultChecked={defaultChecked}
          aria-describedby={problems?.length ? `${hintId} ${errorId}` : hintId}
          aria-invalid={!!problems?.length}
          className="mt-0.5 size-4 shrink-0 accent-indigo-600"
        />
        <span>
          <span className="block text-sm font-medium text-slate-900">{label}</span>
          <span id={hintId} className="block text-sm text-slate-600">
            {hint}
          </span>
        </span>
      </label>
      <FieldError id={errorId} messages={problems} />
    </div>
  );
}

function TextField(props: {
  field: RunnerField;
  /** A visible label, or the id of the heading that already names the field (no second, identical label). */
  label: ReactNode;
  labelledBy?: string;
  hint?: ReactNode;
  defaultValue: string;
  problems?: string[];
  textarea?: boolean;
  inputMode?: 'numeric';
  placeholder?: string;
}) {
  const { field, problems } = props;
  const id = `runner-${field}`;
  const described = [props.hint ? `${id}-hint` : null, problems?.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field === 'tags' ? 'tag_list' : field,
    defaultValue: props.defaultValue,
    'aria-describedby': described,
    'aria-invalid': !!problems?.length,
    'aria-labelledby': props.labelledBy,
    className: inputClass,
  };
  return (
    <div className="flex flex-col gap-1.5">
      {!props.labelledBy && (
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {props.label}
        </label>
      )}
      {props.hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {props.hint}
        </p>
      )}
      {props.textarea ? (
        <textarea rows={3} maxLength={1024} {...common} />
      ) : (
        <input inputMode={props.inputMode} placeholder={props.placeholder} maxLength={1024} {...common} />
      )}
      <FieldError id={`${id}-error`} messages={problems} />
    </div>
  );
}

export const NEW_RUNNER_DEFAULTS: RunnerFormValues = {
  description: '',
  tagList: '',
  runUntagged: false,
  paused: false,
  locked: false,
  accessLevel: 'not_protected',
  maximumTimeout: null,
  maintenanceNote: '',
};

/** GitLab's two sections: "Tags", then "Configuration" (optional details). `lockable`: project runners only. */
export function RunnerFormFields({ defaults, lockable, problems }: { defaults: RunnerFormValues; lockable: boolean; problems: FormProblems }) {
  const f = problems.fields;
  return (
    <>
      <fieldset className="flex flex-col gap-4">
        <legend id="runner-tags-legend" className="mb-1 text-base font-semibold text-slate-900">
          Tags
        </legend>
        <TextField
          field="tags"
          label="Tags"
          labelledBy="runner-tags-legend"
          hint="Add tags to specify jobs that the runner can run. Separate multiple tags with a comma, for example: macos, shared."
          defaultValue={defaults.tagList}
          problems={f.tags}
        />
        <Checkbox
          name="run_untagged"
          label="Run untagged jobs"
          hint="Use the runner for jobs without tags in addition to tagged jobs."
          defaultChecked={defaults.runUntagged}
          problems={f.run_untagged}
        />
      </fieldset>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-1 text-base font-semibold text-slate-900">
          Configuration <Muted className="font-normal">(optional)</Muted>
        </legend>
        <TextField field="description" label="Runner description" defaultValue={defaults.description} problems={f.description} />
        <TextField
          field="maintenance_note"
          label="Maintenance note"
          hint="Add notes such as the runner owner or what it should be used for."
          defaultValue={defaults.maintenanceNote}
          problems={f.maintenance_note}
          textarea
        />
        <Checkbox name="paused" label="Paused" hint="Stop the runner from accepting new jobs." defaultChecked={defaults.paused} problems={f.paused} />
        <Checkbox
          name="protected"
          label="Protected"
          hint="Use the runner on pipelines for protected branches only."
          defaultChecked={defaults.accessLevel === 'ref_protected'}
          problems={f.access_level}
        />
        {lockable && (
          <Checkbox
            name="locked"
            label="Lock to current projects"
            hint="Use the runner for the currently assigned projects only. Only administrators can change the assigned projects."
            defaultChecked={defaults.locked}
            problems={f.locked}
          />
        )}
        <TextField
          field="maximum_timeout"
          label="Maximum job timeout"
          hint="Maximum amount of time the runner can run before it terminates. If a project has a shorter job timeout period, that one is used instead. Enter the number of seconds: at least 600 (10 minutes)."
          defaultValue={defaults.maximumTimeout === null ? '' : String(defaults.maximumTimeout)}
          problems={f.maximum_timeout}
          inputMode="numeric"
          placeholder="600"
        />
      </fieldset>
    </>
  );
}
