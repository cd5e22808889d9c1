'use client';
// The admin user page's "Unlock user", where GitLab's admin user page has it: shown while a sign-in lock
// refuses the user, the account's (for everyone) or one of a single address (the API's `locked` is either).
// POST /users/:id/unlock lifts both.
import { formatDateTime, timeAgo } from '../shared/format';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import { useUserAction, type AdminUser } from './use-admin-lists';
import { errorText } from '@/lib/client/error-text';

/** "ends in 8 minutes", the exact time in its title: when a sign-in lock stops refusing the user. */
export function LockEnds({ until }: { until: string }) {
  return (
    <span className="text-xs text-slate-600">
      ends{' '}
      <time dateTime={until} title={formatDateTime(until) ?? undefined}>
        {timeAgo(until)}
      </time>
    </span>
  );
}

export function UserLockNotice({ user }: { user: AdminUser }) {
  const unlock = useUserAction();
  if (!user.locked) return null;
  return (
    <section aria-labelledby="user-lock-title" className="flex max-w-xl flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <h2 id="user-lock-title" className="text-sm font-semibold text-amber-900">
        This user is locked
      </h2>
      <p className="text-sm text-amber-900">
        Too many failed sign-in attempts locked this account. The lock holds for every address, or only for the addresses the attempts came from; it ends by
        itself{' '}
        {user.locked_until ? (
          <>
            <time dateTime={user.locked_until} title={formatDateTime(user.locked_until) ?? undefined}>
              {timeAgo(user.locked_until)}
            </time>{' '}
            ({formatDateTime(user.locked_until)})
          </>
        ) : (
          'when the lock period ends'
        )}
        , or you can unlock it now.
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
