import Link from 'next/link';
import { Badge } from '../ui/badge';
import { SignOutButton } from './sign-out-button';
import type { SessionUser } from './session-provider';

export function TopBar({ user }: { user: SessionUser }) {
  return (
    <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="flex h-14 items-center justify-between px-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold text-slate-900">
          <span className="grid size-7 place-items-center rounded-md bg-indigo-600 text-xs font-bold text-white" aria-hidden>
            R
          </span>
          Runway
        </Link>
        <div className="flex items-center gap-3">
          <div className="text-right leading-tight" data-testid="current-user">
            <p className="text-sm font-medium text-slate-900">{user.name}</p>
            <p className="text-xs text-slate-500">@{user.username}</p>
          </div>
          {user.admin && <Badge tone="info">Admin</Badge>}
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
