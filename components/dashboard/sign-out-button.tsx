'use client';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
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
        // No redirect from next-auth: its URL is built from the external URL, the browser may use another host.
        await signOut({ redirect: false });
        // A full page load rather than router.push, so nothing the signed-out user's session loaded stays in memory.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- the full load is the point
        window.location.assign('/sign-in');
      }}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </Button>
  );
}
