// A grid of links to a project's or group's pages, each with its own icon and a line saying what is there.
import type { LucideIcon } from 'lucide-react';
import Link from 'next/link';

export interface LinkCard {
  href: string;
  label: string;
  hint: string;
  /** Each card has one, and no two cards of a grid share it: the text of every card lines up beside it. */
  icon: LucideIcon;
}

export function LinkCards({ label, links }: { label: string; links: LinkCard[] }) {
  return (
    <nav aria-label={label}>
      <ul className="grid gap-3 sm:grid-cols-2">
        {links.map((l) => (
          <li key={l.href}>
            <Link
              href={l.href}
              className="flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm hover:border-indigo-300 hover:bg-indigo-50/40 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <span aria-hidden className="mt-0.5 grid size-8 shrink-0 place-items-center rounded-md bg-indigo-50 text-indigo-600">
                <l.icon className="size-4" />
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="text-sm font-medium text-indigo-700">{l.label}</span>
                <span className="text-xs text-slate-600">{l.hint}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
