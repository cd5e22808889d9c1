// Facts about a project or group as term/value pairs.
import type { ReactNode } from 'react';

export function DetailsList({ items }: { items: Array<{ term: string; value: ReactNode }> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.term} className="flex flex-col gap-0.5">
          <dt className="text-xs font-medium text-slate-500">{item.term}</dt>
          <dd className="break-words text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
