// The signed-in shell: top bar, navigation, and the client providers (query cache, API client with the
// session's CSRF token). Signed-out visitors go to /sign-in, which brings them back to the page they asked for.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { signInPath } from '@/lib/auth/callback-path';
import { renderTime } from '@/lib/server/render-time';
import { dashboardSession } from '@/lib/sessions/next-auth';
import { REQUESTED_PATH_HEADER } from '@/lib/auth/requested-path';
import { firstPage } from '@/components/dashboard/navigation';
import { DashboardProviders } from '@/components/dashboard/session-provider';
import { SideNav } from '@/components/dashboard/side-nav';
import { TopBar } from '@/components/dashboard/top-bar';
import { FocusKeeper } from '@/components/ui/focus-keeper';
import { MAIN_CONTENT_ID } from '@/components/ui/main-content';

export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await dashboardSession();
  if (!session) redirect(signInPath((await headers()).get(REQUESTED_PATH_HEADER), firstPage()));
  const { user, csrfToken } = session;
  const sessionUser = { id: user.id, username: user.username, name: user.name, admin: user.admin };
  return (
    <DashboardProviders csrfToken={csrfToken} user={sessionUser} renderedAt={renderTime()}>
      {/* GitLab's name for it: scripts and tests read the token from here. */}
      <meta name="csrf-token" content={csrfToken} />
      {/* The first Tab stop: past the top bar and the navigation, straight to the page (GitLab's "Skip to main content"). */}
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-indigo-700 shadow-lg ring-2 ring-indigo-600 focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to main content
      </a>
      <FocusKeeper />
      <div className="min-h-screen">
        <TopBar user={sessionUser} />
        <div className="flex">
          {/* GitLab's sidebar: full height beside the page from md up; a drawer from the top bar below. */}
          <aside className="sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-60 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-3 py-5 md:block">
            <SideNav admin={user.admin} />
          </aside>
          {/* tabIndex -1: the skip link and the focus keeper can focus it; it is no Tab stop itself. */}
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
            <div className="mx-auto max-w-6xl">{children}</div>
          </main>
        </div>
      </div>
    </DashboardProviders>
  );
}
