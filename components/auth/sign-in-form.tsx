'use client';
import { signIn } from 'next-auth/react';
import { useSearchParams } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { rateLimitedMessage, rateLimitedSeconds } from '@/lib/rate-limits/sign-in';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { InlineError } from '../ui/states';
import { safeCallbackPath } from '@/lib/auth/callback-path';

// next-auth's error codes (query `error` or signIn's result); `blocked` and `locked` are thrown by our
// authorize(); `RateLimited:<seconds>` names the sign-in throttle's 429 and when to retry.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Invalid login or password.',
  blocked: 'Your account has been blocked. Contact your administrator.',
  locked: 'Your account is locked.',
  SessionRequired: 'Sign in to continue.',
};
function messageFor(code: string): string {
  const retryAfter = rateLimitedSeconds(code);
  if (retryAfter !== null) return rateLimitedMessage(retryAfter);
  return MESSAGES[code] ?? 'Sign-in failed. Try again.';
}

type Field = 'username' | 'password';
// Checked before any request: an empty field is named, not reported as a wrong login.
const REQUIRED: Record<Field, string> = {
  username: 'Enter your username or primary email.',
  password: 'Enter your password.',
};

export function SignInForm() {
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(() => {
    const code = params.get('error');
    return code ? messageFor(code) : null;
  });
  const [missing, setMissing] = useState<Partial<Record<Field, string>>>({});
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState(false);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const values = { username: String(form.get('username') ?? '').trim(), password: String(form.get('password') ?? '') };
    const empty = (Object.keys(REQUIRED) as Field[]).filter((f) => !values[f]);
    setMissing(Object.fromEntries(empty.map((f) => [f, REQUIRED[f]])));
    if (empty.length) {
      setError(null);
      (empty[0] === 'username' ? usernameInput : passwordInput).current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    setRefused(false);
    try {
      const result = await signIn('credentials', { redirect: false, ...values });
      if (!result || result.error) {
        setError(messageFor(result?.error ?? ''));
        setRefused(true);
        setPending(false);
        // The first field of the refused pair, selected for retyping: focus must not stay on nothing.
        usernameInput.current?.focus();
        usernameInput.current?.select();
        return;
      }
      // A full navigation, so the server layout renders with the new session cookie.
      window.location.assign(safeCallbackPath(params.get('callbackUrl')));
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
      usernameInput.current?.focus();
    }
  }

  // A refused sign-in concerns both fields: each is marked and points at the message.
  const fieldProps = (f: Field) => ({
    'aria-invalid': !!missing[f] || refused,
    'aria-describedby': [missing[f] ? `${f}-error` : null, refused && error ? 'sign-in-error' : null].filter(Boolean).join(' ') || undefined,
    className: inputClass,
    // Typing clears that field's message.
    onChange: () => missing[f] && setMissing((m) => ({ ...m, [f]: undefined })),
  });

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {error && (
        <div id="sign-in-error">
          <InlineError>{error}</InlineError>
        </div>
      )}
      <div className="flex flex-col gap-1.5">
        <label htmlFor="username" className="text-sm font-medium text-slate-700">
          Username or primary email
        </label>
        <input id="username" name="username" ref={usernameInput} autoComplete="username" required autoFocus {...fieldProps('username')} />
        <FieldError id="username-error" messages={missing.username ? [missing.username] : null} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="password" className="text-sm font-medium text-slate-700">
          Password
        </label>
        <input id="password" name="password" ref={passwordInput} type="password" autoComplete="current-password" required {...fieldProps('password')} />
        <FieldError id="password-error" messages={missing.password ? [missing.password] : null} />
      </div>
      <Button type="submit" disabled={pending} className="mt-2 w-full">
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
