// GitLab's 404 page, in its words: shown for addresses that lead nowhere and for projects, groups and
// admin pages the user may not see (the API answers 404 for both, so existence is not revealed).
import { MapPinOff } from 'lucide-react';
import Link from 'next/link';
import { EmptyIllustration } from '../ui/states';

export function NotFoundPage() {
  return (
    <div className="flex flex-col items-center gap-3 py-16 text-center">
      <EmptyIllustration icon={MapPinOff} />
      <p className="text-sm font-semibold uppercase tracking-widest text-slate-500" aria-hidden>
        Error 404
      </p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="max-w-md text-sm text-slate-600">
        Make sure the address is correct and the page has not moved. Please contact your Runway administrator if you think this is a mistake.
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        <Link
          href="/dashboard/projects"
          className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
        >
          Go to your projects
        </Link>
        <Link
          href="/dashboard/groups"
          className="inline-flex h-9 items-center rounded-md bg-white px-4 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          Go to your groups
        </Link>
      </div>
    </div>
  );
}
