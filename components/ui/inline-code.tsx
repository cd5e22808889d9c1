// Code in running text (a docs page's `code`, the API reference's names and values), one look everywhere.
import type { ReactNode } from 'react';

export function InlineCode({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-200/60 px-1 py-0.5 font-mono text-[0.8125rem] text-slate-800 break-words">{children}</code>;
}

/** Text whose `backticked` words are code, as the OpenAPI document's descriptions write them. */
export function TextWithCode({ text }: { text: string }) {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <InlineCode key={i}>{part.slice(1, -1)}</InlineCode> : part));
}
