'use client';
// A page that failed to render: say so inside the shell, with a retry and a way back to the projects.
import Link from 'next/link';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    // The server logged the details under this digest; the browser console gets the client-side error.
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-16 text-center">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Something went wrong</h1>
      <p className="max-w-md text-sm text-slate-600">
        This page could not be shown. Try again, or go back to your projects.
        {error.digest && <span className="mt-1 block text-xs text-slate-500">Reference: {error.digest}</span>}
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        <Button onClick={reset}>Try again</Button>
        <Link
          href="/dashboard/projects"
          className="inline-flex h-9 items-center rounded-md bg-white px-4 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          Go to your projects
        </Link>
      </div>
    </div>
  );
}
