'use client';
// An error banner that brings itself into view: a form's summary at its top appears after a submit made
// at its bottom, where the banner would otherwise be off screen or under the sticky top bar (its
// scroll-margin-top, globals.css, keeps it below the bar).
import { useEffect, useRef, type ReactNode } from 'react';

export function AlertBanner({ className, children }: { className: string; children: ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const shown = useRef<string | null>(null);
  // Only when the message is new: typing in the form re-renders it, and must not pull the page back up.
  useEffect(() => {
    const el = ref.current;
    if (!el || el.textContent === shown.current) return;
    shown.current = el.textContent;
    const { top, bottom } = el.getBoundingClientRect();
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    if (top < header || bottom > window.innerHeight) el.scrollIntoView({ block: 'start', behavior: 'smooth' });
  });
  return (
    <p ref={ref} role="alert" className={className}>
      {children}
    </p>
  );
}
