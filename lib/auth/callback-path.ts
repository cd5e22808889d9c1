// Where the dashboard returns after sign-in (`callbackUrl`). Only a path on this site: the value is
// resolved the way a browser resolves it, so every spelling that leaves the origin (`//host`, `/\host`,
// tabs or newlines the URL parser drops, `https:`, `javascript:`) falls back. Pure: used by the server
// layout, next-auth's redirect callback and the sign-in form alike.

const BASE = 'http://runway.invalid';
const SIGN_IN = '/sign-in';

/** A same-origin path (with query and fragment) to return to, else `fallback`. */
export function safeCallbackPath(value: string | null | undefined, fallback = '/'): string {
  if (!value || value.length > 2048 || !value.startsWith('/')) return fallback;
  // Browsers treat `\` as `/` and drop tabs and newlines: neither belongs in a path we produced.
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Returning to the sign-in page itself would only show the form again.
  if (url.pathname === SIGN_IN || url.pathname.startsWith(`${SIGN_IN}/`)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page, remembering `path` (when there is one worth returning to). */
export function signInPath(path: string | null | undefined, home?: string): string {
  const back = safeCallbackPath(path, '');
  return back && back !== '/' && back !== home ? `${SIGN_IN}?callbackUrl=${encodeURIComponent(back)}` : SIGN_IN;
}
