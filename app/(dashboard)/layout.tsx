// The signed-in shell: top bar, navigation, and the client providers (query cache, API client with the
// session's CSRF token). Signed-out visitors go to /sign-in, which brings them back to the page they asked for.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { signInPath } from '@/lib/auth/callback-path';
import { dashboardSession } from '@/lib/sessions/next-auth';
import { REQUESTED_PATH_HEADER } from '@/lib/auth/requested-path';
import { firstPage } from '@/components/dashboard/navigation';
import { DashboardProviders } from '@/components/dashboard/session-provider';
import { SideNav } from '@/components/dashboard/side-nav';
import { TopBar } from '@/components/dashboard/top-bar';

export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await dashboardSession();
  if (!session) redirect(signInPath((await headers()).get(REQUESTED_PATH_HEADER), firstPage()));
  const { user, csrfToken } = session;
  const sessionUser = { id: user.id, username: user.username, name: user.name, admin: user.admin };
  return (
    <DashboardProviders csrfToken={csrfToken} user={sessionUser}>
      {/* GitLab's name for it: scripts and tests read the token from here. */}
      <meta name="csrf-token" content={csrfToken} />
      <div className="min-h-screen">
        <TopBar user={sessionUser} />
        <div className="flex">
          {/* GitLab's sidebar: full height beside the page from md up; a drawer from the top bar below. */}
          <aside className="sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-60 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-3 py-5 md:block">
            <SideNav admin={user.admin} />
          </aside>
          <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-6xl">{children}</div>
          </main>
        </div>
      </div>
    </DashboardProviders>
  );
}
