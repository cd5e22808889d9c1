'use client';
// Several shell lines to copy at once: a scrollable block (long lines scroll inside it, never the page) and a
// copy button that says when the clipboard refused.
import { Button } from '../ui/button';
import { useCopy } from '../ui/copy-field';

export function CodeBlock({ label, code }: { label: string; code: string }) {
  const { copy, copyValue: copyCode } = useCopy(code);
  return (
    <div className="flex flex-col gap-1">
      <div className="min-w-0 overflow-hidden rounded-md border border-slate-800 bg-slate-900">
        <div className="flex items-center justify-between gap-2 border-b border-slate-700 px-3 py-1.5">
          <span aria-hidden className="text-xs font-medium text-slate-300">
            {label}
          </span>
          <Button variant="secondary" size="sm" onClick={copyCode} aria-label={`Copy ${label.toLowerCase()}`}>
            {copy === 'copied' ? 'Copied' : 'Copy'}
          </Button>
        </div>
        {/* Focusable so a keyboard user can scroll a long line; named for screen readers. */}
        <pre
          tabIndex={0}
          aria-label={label}
          className="overflow-x-auto px-3 py-3 font-mono text-xs leading-5 text-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-400"
        >
          <code>{code}</code>
        </pre>
      </div>
      <p role="status" className="text-sm text-red-700">
        {copy === 'failed' ? 'Could not copy: select the commands and copy them yourself.' : ''}
      </p>
    </div>
  );
}
