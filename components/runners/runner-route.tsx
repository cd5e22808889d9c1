// The runner pages a catch-all route serves (.../runners/:id, /edit, /register, .../runners/new), chosen
// from the parsed path; server-rendered shell, so the configured external URL comes from the server.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { externalUrl } from '@/lib/config/env';
import { requirePageAccess } from '@/lib/server/page-access';
import { LoadingState } from '../ui/states';
import { ADMIN_SCOPE, parseRunnerSubPage, type RunnerScope, type RunnerSubPage } from '@/lib/client/runner-paths';
import { RunnerDetail } from './runner-detail';
import { RunnerEditPage } from './runner-edit-page';
import { RunnerNewPage } from './runner-new-page';
import { RunnerRegisterPage } from './runner-register-page';

export function RunnerRoute({ sub, scope, externalUrl }: { sub: RunnerSubPage; scope: RunnerScope; externalUrl: string }) {
  const key = sub.page === 'new' ? 'new' : `${sub.page}-${sub.id}`;
  return (
    <Suspense fallback={<LoadingState />}>
      {sub.page === 'new' ? (
        <RunnerNewPage key={key} scope={scope} />
      ) : sub.page === 'edit' ? (
        <RunnerEditPage key={key} id={sub.id} scope={scope} />
      ) : sub.page === 'register' ? (
        <RunnerRegisterPage key={key} id={sub.id} scope={scope} externalUrl={externalUrl} />
      ) : (
        <RunnerDetail key={key} id={sub.id} scope={scope} />
      )}
    </Suspense>
  );
}

/** The page title of a runner page. */
export function runnerPageTitle(sub: RunnerSubPage): string {
  if (sub.page === 'new') return 'New runner';
  return sub.page === 'show' ? `Runner #${sub.id}` : `${sub.page === 'edit' ? 'Edit' : 'Register'} runner #${sub.id}`;
}

type IdParams = { params: Promise<{ id: string }> };

/** /admin/runners/:id[/edit|/register]: the page module's metadata and page for one kind of runner page. */
export function adminRunnerPage(kind?: 'edit' | 'register') {
  const subOf = async ({ params }: IdParams) => parseRunnerSubPage(['runners', (await params).id, ...(kind ? [kind] : [])]);
  return {
    generateMetadata: async (props: IdParams): Promise<Metadata> => {
      const sub = await subOf(props);
      return { title: sub ? `${runnerPageTitle(sub)} · Runway` : 'Page not found · Runway' };
    },
    Page: async (props: IdParams) => {
      // Only positive integers are runner ids; anything else is not a page.
      const sub = await subOf(props);
      if (!sub) notFound();
      // A runner that does not exist is not found (the admin layout has already turned away non-admins).
      if (sub.page !== 'new') await requirePageAccess({ kind: 'runner', id: sub.id, scope: null });
      return <RunnerRoute sub={sub} scope={ADMIN_SCOPE} externalUrl={externalUrl()} />;
    },
  };
}
