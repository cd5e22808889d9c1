'use client';
// The admin user page's "Unlock user", where GitLab's admin user page has it: shown while failed sign-ins
// lock the account for everyone. POST /users/:id/unlock also lifts the locks of single addresses.
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import { useUserAction, type AdminUser } from './use-admin-lists';
import { errorText } from '@/lib/client/error-text';

export function UserLockNotice({ user }: { user: AdminUser }) {
  const unlock = useUserAction();
  if (!user.locked) return null;
  return (
    <section aria-labelledby="user-lock-title" className="flex max-w-xl flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <h2 id="user-lock-title" className="text-sm font-semibold text-amber-900">
        This user is locked
      </h2>
      <p className="text-sm text-amber-900">
        Too many failed sign-in attempts locked this account. It unlocks by itself when the lock period ends, or you can unlock it now.
      </p>
      {unlock.error && <InlineError>{errorText(unlock.error)}</InlineError>}
      <div>
        <Button variant="secondary" disabled={unlock.isPending} onClick={() => unlock.mutate({ user, action: 'unlock' })}>
          {unlock.isPending ? 'Unlocking…' : 'Unlock user'}
        </Button>
      </div>
    </section>
  );
}
