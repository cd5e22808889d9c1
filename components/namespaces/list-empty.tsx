// What an empty dashboard list says: nothing at all, or nothing matching the search (with the way back to
// the full list). A page past the end is the data table's own state.
import { SearchX, type LucideIcon } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';

const linkClass = 'font-medium text-indigo-700 hover:underline';

/** `icon`: the illustration of an empty list (a search finding nothing has its own). */
export function listEmpty(opts: { noun: string; search?: string; none: string; icon?: LucideIcon }): {
  title: string;
  description?: ReactNode;
  icon?: LucideIcon;
} {
  if (opts.search)
    return {
      title: `No ${opts.noun} match "${opts.search}"`,
      icon: SearchX,
      description: (
        <>
          Check the spelling or search for something else, or{' '}
          <Link href="?" className={linkClass}>
            clear the search
          </Link>
          .
        </>
      ),
    };
  return { title: `No ${opts.noun} yet`, description: opts.none, icon: opts.icon };
}
