'use client';
import { useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { InlineError } from '../ui/states';
import type { NewPersonalAccessToken } from '@/lib/client/types';
import { validationMessages } from '@/lib/client/validation';
import { daysFromTodayIso } from '../shared/format';
import { TOKEN_SCOPES, useCreateToken } from './use-tokens';
import { Muted } from '../ui/muted';

// GitLab's default maximum token lifetime; the API refuses later dates (and sets it when none is given).
const MAX_LIFETIME_DAYS = 365;

type Field = 'name' | 'expires_at' | 'scopes';
// The API's full messages name these attributes; its message for each is shown by that field.
const ATTRIBUTE_NAMES: Record<Field, string> = { name: 'Name', expires_at: 'Expires at', scopes: 'Scopes' };

export function CreateTokenForm({ onCreated, onCancel }: { onCreated: (token: NewPersonalAccessToken) => void; onCancel: () => void }) {
  const create = useCreateToken();
  const [local, setLocal] = useState<Partial<Record<Field, string>>>({});

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const scopes = form.getAll('scopes').map(String);
    const expiresAt = String(form.get('expires_at') ?? '');
    const description = String(form.get('description') ?? '').trim();
    const problems: Partial<Record<Field, string>> = {};
    if (!name) problems.name = 'Enter a token name.';
    if (!scopes.length) problems.scopes = 'Select at least one scope.';
    setLocal(problems);
    if (Object.keys(problems).length) return create.reset();
    create.mutate(
      { name, scopes, ...(description ? { description } : {}), ...(expiresAt ? { expires_at: expiresAt } : {}) },
      { onSuccess: (token) => onCreated(token) },
    );
  }

  const api = validationMessages(create.error, ATTRIBUTE_NAMES);
  // The API's full message ("Expires at cannot be a date in the past"), as it said it.
  const messages = (f: Field) => (local[f] ? [local[f]] : (api.byAttribute[f]?.map((m) => `${ATTRIBUTE_NAMES[f]} ${m}.`) ?? null));
  const invalid = (f: Field) => ({
    'aria-invalid': !!messages(f),
    'aria-describedby': messages(f) ? `token-${f}-error` : undefined,
  });
  const fieldCount = (Object.keys(ATTRIBUTE_NAMES) as Field[]).filter(messages).length;
  const error = api.general.length ? api.general.join(' ') : fieldCount ? 'The token was not created: check the highlighted fields.' : null;
  return (
    <form onSubmit={onSubmit} aria-label="Add a personal access token" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
      <h2 className="text-base font-semibold text-slate-900">Add a personal access token</h2>
      <div className="mt-4 flex flex-col gap-5">
        {error && <InlineError>{error}</InlineError>}
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="token-name" className="text-sm font-medium text-slate-700">
              Token name
            </label>
            <input id="token-name" name="name" required maxLength={255} className={inputClass} placeholder="e.g. ci-automation" {...invalid('name')} />
            <FieldError id="token-name-error" messages={messages('name')} />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="token-expires" className="text-sm font-medium text-slate-700">
              Expiration date <Muted className="font-normal">(optional)</Muted>
            </label>
            {/* GitLab's picker starts tomorrow: a token expiring today would already be expired. */}
            <input
              id="token-expires"
              name="expires_at"
              type="date"
              min={daysFromTodayIso(1)}
              max={daysFromTodayIso(MAX_LIFETIME_DAYS)}
              className={inputClass}
              {...invalid('expires_at')}
            />
            <FieldError id="token-expires_at-error" messages={messages('expires_at')} />
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="token-description" className="text-sm font-medium text-slate-700">
            Description <Muted className="font-normal">(optional)</Muted>
          </label>
          <input id="token-description" name="description" maxLength={255} className={inputClass} />
        </div>
        <fieldset aria-describedby={invalid('scopes')['aria-describedby']}>
          <legend className="text-sm font-medium text-slate-700">Scopes</legend>
          <FieldError id="token-scopes-error" messages={messages('scopes')} />
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {TOKEN_SCOPES.map((scope) => (
              <label
                key={scope.value}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50 has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/50"
              >
                <input type="checkbox" name="scopes" value={scope.value} className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600" />
                <span>
                  <span className="block font-mono text-sm text-slate-900">{scope.value}</span>
                  <span className="block text-xs text-slate-500">{scope.description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex gap-3">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
        </div>
      </div>
    </form>
  );
}
