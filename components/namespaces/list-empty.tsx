// What an empty dashboard list says: nothing at all, nothing matching the search, or a page past the end;
// the last two offer the way back to the full list.
import Link from 'next/link';
import type { ReactNode } from 'react';

const linkClass = 'font-medium text-indigo-700 hover:underline';

export function listEmpty(opts: { noun: string; search?: string; page: number; none: string }): { title: string; description?: ReactNode } {
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
  if (opts.page > 1)
    return {
      title: `There is no page ${opts.page}`,
      description: (
        <Link href="?" className={linkClass}>
          Go to the first page
        </Link>
      ),
    };
  return { title: `No ${opts.noun} yet`, description: opts.none };
}
