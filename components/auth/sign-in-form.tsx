'use client';
import { signIn } from 'next-auth/react';
import { useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { RATE_LIMITED_CODE } from '@/lib/rate-limits/sign-in';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';

// next-auth's error codes (query `error` or signIn's result); `blocked` and `locked` are thrown by our
// authorize(), RateLimited names the sign-in throttle's 429.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Invalid login or password.',
  blocked: 'Your account has been blocked. Contact your administrator.',
  locked: 'Your account is locked.',
  [RATE_LIMITED_CODE]: 'Too many sign-in attempts. Retry later.',
  SessionRequired: 'Sign in to continue.',
};
const messageFor = (code: string) => MESSAGES[code] ?? 'Sign-in failed. Try again.';

/** Only same-origin paths: never send a user elsewhere after sign-in. */
const safePath = (v: string | null) => (v && v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\') ? v : '/');

const inputClass =
  'block w-full rounded-md border-0 px-3 py-2 outline-none text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600';

export function SignInForm() {
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(() => {
    const code = params.get('error');
    return code ? messageFor(code) : null;
  });
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', {
        redirect: false,
        username: String(form.get('username') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      if (!result || result.error) {
        setError(messageFor(result?.error ?? ''));
        setPending(false);
        return;
      }
      // A full navigation, so the server layout renders with the new session cookie.
      window.location.assign(safePath(params.get('callbackUrl')));
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {error && <InlineError>{error}</InlineError>}
      <div className="flex flex-col gap-1.5">
        <label htmlFor="username" className="text-sm font-medium text-slate-700">
          Username or primary email
        </label>
        <input id="username" name="username" autoComplete="username" required autoFocus className={inputClass} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="password" className="text-sm font-medium text-slate-700">
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
      </div>
      <Button type="submit" disabled={pending} className="mt-2 w-full">
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
