'use client';
// The token's value, shown once right after creation: it is never stored, so it cannot be shown again.
import { useState } from 'react';
import { Button } from '../ui/button';
import type { NewPersonalAccessToken } from '@/lib/client/types';

export function NewTokenPanel({ token, onDismiss }: { token: NewPersonalAccessToken; onDismiss: () => void }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copyToken() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }
  return (
    <section aria-label="Your new personal access token" className="rounded-lg border border-emerald-200 bg-emerald-50 p-5">
      <h2 className="text-sm font-semibold text-emerald-900">Your new personal access token “{token.name}”</h2>
      <div className="mt-3 flex gap-2">
        <input
          readOnly
          aria-label="Token value"
          value={token.token}
          onFocus={(e) => e.currentTarget.select()}
          className="block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-emerald-300"
        />
        <Button variant="secondary" onClick={copyToken}>
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="mt-3 text-sm font-medium text-amber-800" role="note">
        Make sure you save it now: you won’t be able to see it again.
      </p>
      {copy === 'failed' && <p className="mt-1 text-sm text-red-700">Could not copy: select the value and copy it yourself.</p>}
      <div className="mt-3">
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
