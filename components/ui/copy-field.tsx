'use client';
// A read-only value with a copy button (a token, a command): selecting it on focus, and saying when the
// clipboard refused so the user copies it by hand. A multi-line field grows to its content (a long command
// on a phone stays readable).
import { useState } from 'react';
import { Button } from './button';

/** Copies `value` on demand; the state says whether the clipboard took it. */
export function useCopy(value: string) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copyValue() {
    try {
      await navigator.clipboard.writeText(value);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }
  return { copy, copyValue };
}

export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const { copy, copyValue } = useCopy(value);
  const fieldClass = 'block w-full min-w-0 rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300';
  return (
    <div>
      <div className="flex items-start gap-2">
        {multiline ? (
          <textarea
            readOnly
            aria-label={label}
            value={value}
            rows={2}
            onFocus={(e) => e.currentTarget.select()}
            className={`${fieldClass} resize-none break-all [field-sizing:content]`}
          />
        ) : (
          <input readOnly aria-label={label} value={value} onFocus={(e) => e.currentTarget.select()} className={fieldClass} />
        )}
        <Button variant="secondary" onClick={copyValue} aria-label={`Copy ${label.toLowerCase()}`}>
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="mt-1 text-sm text-red-700">
        {copy === 'failed' ? 'Could not copy: select the value and copy it yourself.' : ''}
      </p>
    </div>
  );
}
