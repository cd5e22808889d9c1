// What an empty dashboard list says: nothing at all, nothing matching the search, or a page past the end.
import Link from 'next/link';

export function listEmpty(opts: { noun: string; search?: string; page: number; none: string }): { title: string; description?: React.ReactNode } {
  if (opts.search) return { title: `No ${opts.noun} match "${opts.search}"`, description: 'Check the spelling or search for something else.' };
  if (opts.page > 1)
    return {
      title: `There is no page ${opts.page}`,
      description: (
        <Link href="?" className="font-medium text-indigo-700 hover:underline">
          Go to the first page
        </Link>
      ),
    };
  return { title: `No ${opts.noun} yet`, description: opts.none };
}
