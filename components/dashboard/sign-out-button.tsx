'use client';
import { useState } from 'react';
import { signOut } from '@/lib/client/sign-out';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={pending || !hydrated}
      onClick={async () => {
        setPending(true);
        // No redirect from next-auth's answer: its URL is built from the external URL, the browser may use another host.
        try {
          await signOut();
        } catch {
          setPending(false); // still signed in: the button stays usable
          return;
        }
        // A full page load rather than router.push, so nothing the signed-out user's session loaded stays in memory.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- the full load is the point
        window.location.assign('/sign-in');
      }}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </Button>
  );
}
