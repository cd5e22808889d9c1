'use client';
// Small screens: the menu lives in a drawer opened by the top bar's menu button. The drawer is a modal
// dialog: focus moves into it, Tab stays inside, Escape or the backdrop closes it and focus returns to the
// button; following a link closes it too.
import { Menu, X } from 'lucide-react';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { SideNav } from './side-nav';

export function MobileNav({ admin }: { admin: boolean }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
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

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
    // The page behind must not scroll under the drawer.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const [first, last] = [focusable[0], focusable[focusable.length - 1]];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
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
      {/* In <body>: the top bar's backdrop blur would otherwise be the fixed overlay's containing block. */}
      {open &&
        createPortal(
          <div className="fixed inset-0 z-40 md:hidden" onKeyDown={onKeyDown}>
            <div aria-hidden className="absolute inset-0 bg-slate-900/40" onClick={close} />
            <div
              ref={panel}
              id="mobile-menu"
              role="dialog"
              aria-modal="true"
              aria-label="Menu"
              className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto bg-white p-4 shadow-xl"
            >
              <div className="flex items-center justify-between">
                <span className="text-sm font-semibold text-slate-900">Menu</span>
                <button
                  type="button"
                  aria-label="Close menu"
                  onClick={close}
                  className="grid size-9 place-items-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <X aria-hidden className="size-5" />
                </button>
              </div>
              <SideNav admin={admin} />
            </div>
          </div>,
          document.body,
        )}
    </>
  );
}
