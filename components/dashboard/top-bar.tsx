// The top bar: on small screens the menu button, then the product's mark and name; on the right who is
// signed in (their initials, name and username), an Admin badge, and Sign out.
import { Rocket } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../ui/badge';
import { MobileNav } from './mobile-nav';
import { SignOutButton } from './sign-out-button';
import type { SessionUser } from './session-provider';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}

export function TopBar({ user }: { user: SessionUser }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="flex h-14 items-center gap-2 px-3 sm:px-5">
        <MobileNav admin={user.admin} />
        <Link
          href="/"
          // Not prefetched on sight, as the menu's links (side-nav.tsx): it would compete with the page's data.
          prefetch={false}
          className="flex items-center gap-2 rounded-md px-1 font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <span className="grid size-8 place-items-center rounded-lg bg-gradient-to-br from-indigo-500 to-indigo-700 text-white shadow-sm" aria-hidden>
            <Rocket className="size-4" />
          </span>
          Runway
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-3">
          {user.admin && <Badge tone="info">Admin</Badge>}
          <div className="flex min-w-0 items-center gap-2">
            <span aria-hidden className="grid size-8 shrink-0 place-items-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700">
              {initials(user.name)}
            </span>
            {/* Names stay in the accessibility tree on phones, where only the initials are drawn. */}
            <div className="sr-only min-w-0 leading-tight sm:not-sr-only" data-testid="current-user">
              <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
              <p className="truncate text-xs text-slate-600">@{user.username}</p>
            </div>
          </div>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
