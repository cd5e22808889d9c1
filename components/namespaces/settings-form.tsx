'use client';
// The building blocks of the General Settings pages (a project's /-/edit and a group's): a section card that
// is its own form with one "Save changes", and its labelled controls, each with its help line and, where the
// API refused a value, GitLab's validation message under it (aria-describedby and aria-invalid point at it).
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { InlineError } from '../ui/states';

/** One settings section: heading, description, fields, the refusal where the user acted, and its save button. */
export function SettingsSection(props: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
  onSubmit: () => void;
  busy: boolean;
  error: Error | null;
  /** The refusal in words; the error's own message when not given. */
  messages?: string[];
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  const messages = props.messages ?? (props.error ? [props.error.message] : []);
  return (
    <section aria-labelledby={`${props.id}-heading`} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={`${props.id}-heading`} className="text-lg font-semibold text-slate-900">
        {props.title}
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">{props.description}</p>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-5">
        {props.children}
        {messages.length > 0 && <InlineError>{messages.join(' ')}</InlineError>}
        <div>
          <Button type="submit" disabled={props.busy} aria-busy={props.busy || undefined}>
            {props.busy ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** A control's label and the help line its `aria-describedby` points at (`<id>-help`). */
export function LabelWithHelp(props: { id: string; label: ReactNode; help?: ReactNode; className?: string; labelClassName?: string }) {
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className={`text-sm text-slate-800 ${props.labelClassName ?? ''}`}>
        {props.label}
      </label>
      {props.help && (
        <p id={`${props.id}-help`} className="text-xs text-slate-600">
          {props.help}
        </p>
      )}
    </div>
  );
}

/** The ids a control is described by: its help line and its error, when there are any. */
const describedBy = (id: string, help: unknown, errors?: string[]) =>
  [help ? `${id}-help` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

export function Select<T extends string>(props: {
  label: string;
  help?: ReactNode;
  value: T;
  options: [T, string][];
  onChange: (v: T) => void;
  disabled?: boolean;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
        <LabelWithHelp id={id} label={props.label} help={props.help} className="min-w-0" labelClassName="font-medium" />
        <select
          id={id}
          value={props.value}
          disabled={props.disabled}
          aria-describedby={describedBy(id, props.help, props.errors)}
          aria-invalid={props.errors?.length ? true : undefined}
          onChange={(e) => props.onChange(e.target.value as T)}
          className="h-9 w-full shrink-0 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 disabled:bg-slate-100 disabled:text-slate-500 aria-invalid:border-red-500 sm:w-60"
        >
          {props.options.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <FieldError id={`${id}-error`} messages={props.errors} />
    </div>
  );
}

export function Check(props: { label: ReactNode; help?: ReactNode; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; errors?: string[] }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          checked={props.checked}
          disabled={props.disabled}
          aria-describedby={describedBy(id, props.help, props.errors)}
          aria-invalid={props.errors?.length ? true : undefined}
          onChange={(e) => props.onChange(e.target.checked)}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-400 text-indigo-600 disabled:opacity-60"
        />
        <LabelWithHelp id={id} label={props.label} help={props.help} className="min-w-0" />
      </div>
      <FieldError id={`${id}-error`} messages={props.errors} />
    </div>
  );
}

export function Radios<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  options: [T, string, string][];
  onChange: (v: T) => void;
  disabled?: boolean;
  help?: ReactNode;
  errors?: string[];
}) {
  const id = useId();
  return (
    <fieldset
      className="flex flex-col gap-2"
      aria-describedby={describedBy(id, props.help, props.errors)}
      aria-invalid={props.errors?.length ? true : undefined}
    >
      <legend className="mb-1 text-sm font-medium text-slate-800">{props.legend}</legend>
      {props.help && (
        <p id={`${id}-help`} className="-mt-1 text-xs text-slate-600">
          {props.help}
        </p>
      )}
      {props.options.map(([v, label, help]) => (
        <label key={v} className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={props.name}
            value={v}
            checked={props.value === v}
            disabled={props.disabled}
            onChange={() => props.onChange(v)}
            className="mt-0.5 size-4 shrink-0"
          />
          <span className="min-w-0">
            {label}
            <span className="block text-xs text-slate-600">{help}</span>
          </span>
        </label>
      ))}
      <FieldError id={`${id}-error`} messages={props.errors} />
    </fieldset>
  );
}

/** A text, number or multi-line field with its label above it. */
export function TextField(props: {
  label: string;
  help?: ReactNode;
  value: string;
  onChange: (v: string) => void;
  errors?: string[];
  type?: 'text' | 'number';
  multiline?: boolean;
  readOnly?: boolean;
  className?: string;
  inputMode?: 'numeric';
  min?: number;
}) {
  const id = useId();
  const shared = {
    id,
    value: props.value,
    readOnly: props.readOnly,
    'aria-describedby': describedBy(id, props.help, props.errors),
    'aria-invalid': props.errors?.length ? true : undefined,
    className: `${inputClass} ${props.readOnly ? 'bg-slate-50 text-slate-600' : ''}`,
  };
  return (
    <div className={`flex min-w-0 flex-col gap-1.5 ${props.className ?? ''}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.multiline ? (
        <textarea {...shared} rows={3} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input {...shared} type={props.type ?? 'text'} min={props.min} inputMode={props.inputMode} onChange={(e) => props.onChange(e.target.value)} />
      )}
      {props.help && (
        <p id={`${id}-help`} className="text-xs text-slate-600">
          {props.help}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={props.errors} />
    </div>
  );
}
