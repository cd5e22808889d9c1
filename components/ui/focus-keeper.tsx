'use client';
// The last line of "a keyboard user never lands on <body>": when the focused element leaves the page (a row
// removed after "Disable for this project", a list replaced by its next page, a closed dialog whose trigger is
// gone), focus moves to the nearest focusable container it was in (the table's scroll region, the dialog's
// section), else to the main content, instead of resting on <body> where the next Tab starts from the top.
import { useEffect } from 'react';
import { MAIN_CONTENT_ID } from './main-content';

const focusable = (el: Element): el is HTMLElement =>
  el instanceof HTMLElement && (el.tabIndex >= 0 || el.hasAttribute('tabindex')) && !el.hasAttribute('disabled') && !el.closest('[inert]');

export function FocusKeeper() {
  useEffect(() => {
    // The focused element and its ancestors at the time: once it is detached, its old ancestors are the
    // only way back to where it was.
    let path: Element[] = [];
    const onFocusIn = (e: FocusEvent) => {
      path = [];
      for (let el = e.target instanceof Element ? e.target : null; el && el !== document.body; el = el.parentElement) path.push(el);
    };
    const rescue = () => {
      const [focused, ...ancestors] = path;
      if (!focused || focused.isConnected || (document.activeElement && document.activeElement !== document.body)) return;
      const target = ancestors.filter(focusable).find((el) => el.isConnected) ?? document.getElementById(MAIN_CONTENT_ID);
      target?.focus({ preventScroll: true });
    };
    // A microtask after the DOM change: a component that moves focus itself (a dialog returning it) goes first.
    const observer = new MutationObserver(() => queueMicrotask(rescue));
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
    };
  }, []);
  return null;
}
