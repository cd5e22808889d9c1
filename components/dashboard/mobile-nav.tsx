'use client';
// Small screens: the menu lives in a drawer opened by the top bar's menu button. The drawer is a modal
// dialog: focus moves into it, Tab stays inside, Escape or the backdrop closes it and focus returns to the
// button; following a link closes it too. The drawer's code (mobile-drawer.tsx) loads with the first
// opening, so it is off every page's first-load JavaScript (issue 23).
import { Menu } from 'lucide-react';
import { usePathname } from 'next/navigation';
import { lazy, Suspense, useRef, useState } from 'react';

const MobileDrawer = lazy(() => import('./mobile-drawer').then((m) => ({ default: m.MobileDrawer })));

export function MobileNav({ admin }: { admin: boolean }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  // A link was followed: the drawer has done its job. Compared while rendering, so no effect sets state.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    if (open) setOpen(false);
  }

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-expanded={open}
        aria-controls="mobile-menu"
        onClick={() => setOpen(true)}
        className="grid size-9 place-items-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
      >
        <Menu aria-hidden className="size-5" />
      </button>
      {open && (
        // Its own boundary: while the drawer's code loads, the page stays as it is.
        <Suspense fallback={null}>
          <MobileDrawer admin={admin} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
