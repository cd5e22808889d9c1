'use client';
// The small-screen menu drawer (mobile-nav.tsx opens it): a modal dialog in <body> holding the side
// navigation. Focus moves into it, Tab stays inside, Escape or the backdrop closes it; the page behind
// does not scroll while it is open.
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { SideNav } from './side-nav';

export function MobileDrawer({ admin, onClose }: { admin: boolean; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
    // The page behind must not scroll under the drawer.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
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

  // In <body>: the top bar's backdrop blur would otherwise be the fixed overlay's containing block.
  return createPortal(
    <div className="fixed inset-0 z-40 md:hidden" onKeyDown={onKeyDown}>
      <div aria-hidden className="absolute inset-0 bg-slate-900/40" onClick={onClose} />
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
            onClick={onClose}
            className="grid size-9 place-items-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X aria-hidden className="size-5" />
          </button>
        </div>
        <SideNav admin={admin} />
      </div>
    </div>,
    document.body,
  );
}
