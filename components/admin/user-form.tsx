'use client';
// /admin/users/new and /admin/users/:id/edit: one form for POST /users and PUT /users/:id. The API's
// validation messages ({"message":{"email":["is invalid"]}}, 409 "Email has already been taken") are
// shown beside the fields they concern.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { adminCrumbs, Breadcrumbs } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { ErrorState, LoadingState, InlineError } from '../ui/states';
import { ApiError } from '@/lib/client/api';
import { validationMessages } from '@/lib/client/validation';
import { useAdminUser, useCreateUser, useUpdateUser, type AdminUser, type UserInput } from './use-admin-lists';
import { UserLockNotice } from './user-lock';

const FIELDS = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
] as const;

type FieldName = (typeof FIELDS)[number]['name'];

/** Messages per field; a 409 ("Email has already been taken") goes to the field it names. */
function problemsFrom(error: unknown) {
  const { byAttribute, general } = validationMessages(error);
  const fields: Partial<Record<string, string[]>> = { ...byAttribute };
  const rest: string[] = [];
  for (const message of general) {
    const field = error instanceof ApiError && error.status === 409 ? FIELDS.find((f) => message.startsWith(`${f.label} `)) : undefined;
    if (field) (fields[field.name] ??= []).push(message.slice(field.label.length + 1));
    else rest.push(message);
  }
  for (const [attr, messages] of Object.entries(fields)) {
    if (!FIELDS.some((f) => f.name === attr)) rest.push(...(messages ?? []).map((m) => `${attr} ${m}`));
  }
  return { fields, general: rest };
}

function UserForm({ user }: { user?: AdminUser }) {
  const router = useRouter();
  const create = useCreateUser();
  const update = useUpdateUser(user?.id ?? 0);
  const mutation = user ? update : create;
  const problems = problemsFrom(mutation.error);
  const shown = FIELDS.filter((f) => !user || f.name !== 'password');

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const input: UserInput = { admin: form.get('admin') === 'on' };
    for (const f of shown) input[f.name as FieldName] = String(form.get(f.name) ?? '');
    if (!user) input.skip_confirmation = true;
    mutation.mutate(input, { onSuccess: () => router.push('/admin/users') });
  }

  return (
    <form
      onSubmit={onSubmit}
      aria-label={user ? 'Edit user' : 'New user'}
      noValidate
      className="flex max-w-xl flex-col gap-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      {problems.general.length > 0 && <InlineError>{problems.general.join(' ')}</InlineError>}
      {shown.map((f) => {
        // Rails' full message ("Email is invalid"), as GitLab's form shows it.
        const messages = problems.fields[f.name]?.map((m) => `${f.label} ${m}`);
        return (
          <div key={f.name} className="flex flex-col gap-1.5">
            <label htmlFor={`user-${f.name}`} className="text-sm font-medium text-slate-700">
              {f.label}
            </label>
            <input
              id={`user-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              defaultValue={user ? String(user[f.name as keyof AdminUser] ?? '') : ''}
              aria-invalid={!!messages}
              aria-describedby={messages ? `user-${f.name}-error` : undefined}
              className={inputClass}
            />
            <FieldError id={`user-${f.name}-error`} messages={messages} />
          </div>
        );
      })}
      <label className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50">
        <input type="checkbox" name="admin" defaultChecked={user?.is_admin ?? false} className="mt-0.5 size-4 accent-indigo-600" />
        <span>
          <span className="block text-sm font-medium text-slate-900">Administrator</span>
          <span className="block text-xs text-slate-500">Administrators have access to all groups, projects and users and can manage all features.</span>
        </span>
      </label>
      <div className="flex gap-3">
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving…' : user ? 'Save changes' : 'Create user'}
        </Button>
        <Link
          href="/admin/users"
          className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          Cancel
        </Link>
      </div>
    </form>
  );
}

export function NewUser() {
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Users', href: '/admin/users' }, { label: 'New user' }])} />
      <PageHeader title="New user" description="The user can sign in at once with this password." />
      <UserForm />
    </div>
  );
}

export function EditUser({ id }: { id: number }) {
  const user = useAdminUser(id);
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Users', href: '/admin/users' }, { label: user.data?.username ?? 'User' }, { label: 'Edit' }])} />
      <PageHeader title={user.data ? `Edit user: ${user.data.name}` : 'Edit user'} />
      {user.isPending ? (
        <LoadingState />
      ) : user.error ? (
        <ErrorState title="Could not load the user" error={user.error} onRetry={() => user.refetch()} />
      ) : (
        <>
          <UserLockNotice user={user.data} />
          <UserForm user={user.data} />
        </>
      )}
    </div>
  );
}
