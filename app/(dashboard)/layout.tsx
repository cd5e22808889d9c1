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
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 md:flex-row md:gap-8">
          <aside className="shrink-0 md:w-52">
            <SideNav admin={user.admin} />
          </aside>
          <main className="min-w-0 flex-1">{children}</main>
        </div>
      </div>
    </DashboardProviders>
  );
}
