// What an empty dashboard list says: nothing at all, or nothing matching the search (with the way back to
// the full list). A page past the end is the data table's own state.
import Link from 'next/link';
import type { ReactNode } from 'react';

const linkClass = 'font-medium text-indigo-700 hover:underline';

export function listEmpty(opts: { noun: string; search?: string; none: string }): { title: string; description?: ReactNode } {
  if (opts.search)
    return {
      title: `No ${opts.noun} match "${opts.search}"`,
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
  return { title: `No ${opts.noun} yet`, description: opts.none };
}
