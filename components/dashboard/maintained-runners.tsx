'use client';
// The menu's "Runners" for users who are not administrators. GitLab has no instance-wide runner list for
// them: a group's runners are on the group's Runners page (Maintainers and up) and a project's in its
// CI/CD settings. The disclosure lists the groups and projects the user maintains and leads there; the list
// (maintained-runners-panel.tsx) loads with the first opening (issue 23: off the first-load JavaScript).
import { Server } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { NavDisclosureButton } from './nav-disclosure-button';
import { Spinner } from '../ui/states';

/** The open disclosure's box, the same while its list loads and after. */
const PANEL_CLASS = 'ml-7 mt-1 flex flex-col gap-2 border-l border-slate-200 pl-2';

const MaintainedRunnersPanel = lazy(() => import('./maintained-runners-panel').then((m) => ({ default: m.MaintainedRunnersPanel })));

export function MaintainedRunners({ pathname }: { pathname: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const here = /\/-\/(runners|settings\/ci_cd)(\/|$)/.test(pathname);
  return (
    <li>
      <NavDisclosureButton icon={Server} label="Runners" open={open} here={here} panelId={panelId} onToggle={() => setOpen((o) => !o)} />
      {open && (
        <Suspense
          fallback={
            <div id={panelId} className={PANEL_CLASS}>
              <Spinner label="Loading your groups and projects" />
            </div>
          }
        >
          <MaintainedRunnersPanel id={panelId} className={PANEL_CLASS} />
        </Suspense>
      )}
    </li>
  );
}
