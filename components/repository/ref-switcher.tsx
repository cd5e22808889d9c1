'use client';
// GitLab's branch switcher on the commits page, as a native select (keyboard and screen readers for free):
// the repository's branches (the first 100 by name), with the current ref kept even when it is not one.
import { GitBranch } from 'lucide-react';
import { useBranchPage } from './use-repository';

export function RefSwitcher({ fullPath, current, onSelect }: { fullPath: string; current: string; onSelect: (name: string) => void }) {
  const branches = useBranchPage(fullPath, { page: 1, perPage: 100 });
  const names = branches.data?.items.map((b) => b.name) ?? [];
  if (!names.includes(current)) names.unshift(current);
  return (
    <label className="relative flex items-center">
      <span className="sr-only">Switch branch</span>
      <GitBranch aria-hidden className="pointer-events-none absolute left-2.5 size-4 text-slate-500" />
      <select
        value={current}
        onChange={(e) => onSelect(e.target.value)}
        className="h-9 w-full min-w-0 rounded-md border-0 bg-white pl-8 pr-8 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
      >
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
