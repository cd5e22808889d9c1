// The sign-in page: username or email and password (next-auth Credentials).
import { Rocket } from 'lucide-react';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SignInForm } from '@/components/auth/sign-in-form';

export const metadata: Metadata = { title: 'Sign in · Runway' };

export default function SignInPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="grid size-11 place-items-center rounded-xl bg-gradient-to-br from-indigo-500 to-indigo-700 text-white shadow-sm" aria-hidden>
            <Rocket className="size-5" />
          </span>
          <h1 className="text-xl font-semibold text-slate-900">Sign in to Runway</h1>
          <p className="text-sm text-slate-600">CI runners and merge request context commits</p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <Suspense>
            <SignInForm />
          </Suspense>
        </div>
      </div>
    </main>
  );
}
