'use client';
// A modal dialog on the native <dialog> element: focus trapping, Escape and the top layer for free.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons, right-aligned at the bottom. */
  footer?: ReactNode;
  /** `wide` for dialogs holding a list (max-w-3xl). */
  size?: 'md' | 'wide';
}

/** Back to the trigger if it is still on the page; otherwise the focus keeper (ui/focus-keeper) finds a place. */
function returnFocus(to: HTMLElement | null) {
  if (to?.isConnected) to.focus();
}

export function Dialog({ open, title, onClose, children, footer, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The native close event arrives a task after close(): by then the dialog may be open again (Escape, then
  // Enter on the button), and calling onClose would shut it. Only a close the parent did not ask for reports.
  const openRef = useRef(open);
  // What had focus when the dialog opened (its trigger): focus goes back there when it closes, also when the
  // parent unmounts the dialog instead of closing it (the browser's own return only follows close()).
  const trigger = useRef<HTMLElement | null>(null);
  useEffect(() => {
    openRef.current = open;
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      trigger.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      el.showModal();
      // showModal focuses the first focusable element; a field marked data-autofocus (e.g. a search) wins.
      el.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && el.open) {
      el.close();
      returnFocus(trigger.current);
    }
  }, [open]);
  useEffect(
    () => () => {
      if (openRef.current) returnFocus(trigger.current);
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={(e) => {
        if (openRef.current && !e.currentTarget.open) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={`m-auto w-full ${size === 'wide' ? 'max-w-3xl' : 'max-w-md'} rounded-lg border border-slate-200 bg-white p-0 shadow-xl backdrop:bg-slate-900/40`}
    >
      {open && (
        <div className="p-6">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <div className="mt-3 text-sm text-slate-600">{children}</div>
          {footer && <div className="mt-6 flex justify-end gap-3">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
