'use client';
// The Access tokens page: the user's tokens (page and state filter in the URL), adding one (its value
// shown once), revoking one after confirmation.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import type { NewPersonalAccessToken, PersonalAccessToken } from '@/lib/client/types';
import { CreateTokenForm } from './create-token-form';
import { NewTokenPanel } from './new-token-panel';
import { RevokeTokenDialog } from './revoke-token-dialog';
import { TokensTable } from './tokens-table';
import { Breadcrumbs } from '../ui/breadcrumbs';
import type { TokenStateFilter } from './use-tokens';
import { TabList, tabProps } from '../ui/tabs';

const FILTERS: Array<{ value: TokenStateFilter; label: string }> = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'all', label: 'All' },
];

function useTableState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const raw = params.get('state');
  const state: TokenStateFilter = raw === 'inactive' || raw === 'all' ? raw : 'active';
  const update = useCallback(
    (changes: { page?: number; state?: TokenStateFilter }) => {
      const next = new URLSearchParams(params.toString());
      if (changes.state !== undefined) {
        if (changes.state === 'active') next.delete('state');
        else next.set('state', changes.state);
        next.delete('page');
      }
      if (changes.page !== undefined) {
        if (changes.page <= 1) next.delete('page');
        else next.set('page', String(changes.page));
      }
      const qs = next.toString();
      router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return { page, state, update };
}

export function PersonalAccessTokens() {
  const { page, state, update } = useTableState();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NewPersonalAccessToken | null>(null);
  const [revoking, setRevoking] = useState<PersonalAccessToken | null>(null);
  const onRevoke = useCallback((t: PersonalAccessToken) => setRevoking(t), []);

  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={[{ label: 'User settings' }, { label: 'Access tokens' }]} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Personal access tokens</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-500">
            Use a token to authenticate with the API: send it in the <code className="text-slate-700">PRIVATE-TOKEN</code> header.
          </p>
        </div>
        {!creating && (
          <Button
            onClick={() => {
              setCreated(null);
              setCreating(true);
            }}
          >
            Add new token
          </Button>
        )}
      </div>

      {created && <NewTokenPanel token={created} onDismiss={() => setCreated(null)} />}
      {creating && (
        <CreateTokenForm
          onCancel={() => setCreating(false)}
          onCreated={(token) => {
            setCreated(token);
            setCreating(false);
          }}
        />
      )}

      <div className="flex flex-col gap-3">
        <TabList label="Token state" className="flex gap-1 border-b border-slate-200">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              {...tabProps(state === f.value)}
              onClick={() => update({ state: f.value })}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                state === f.value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-500 hover:text-slate-800',
              )}
            >
              {f.label}
            </button>
          ))}
        </TabList>
        <TokensTable page={page} state={state} onPageChange={(p) => update({ page: p })} onRevoke={onRevoke} />
      </div>

      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
