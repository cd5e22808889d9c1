// Where the dashboard returns after sign-in (`callbackUrl`). Only a path on this site: the value is
// resolved the way a browser resolves it and the decision is made on the result, so every spelling that
// leaves the origin (`//host`, `/\host`, `/.//host` and `/..//host` whose dot segments normalise into
// `//`, tabs or newlines the URL parser drops, `https:`, `javascript:`) falls back. Pure: used by the
// server layout, next-auth's redirect callback and the sign-in form alike.

const BASE = 'http://runway.invalid';
const SIGN_IN = '/sign-in';
// A path that starts with two slashes, raw or %-encoded (one decoding away), is read as another host.
const HOST_RELATIVE = /^\/(\/|\\|%2f|%5c)/i;

/** A same-origin path (with query and fragment) to return to, else `fallback`. */
export function safeCallbackPath(value: string | null | undefined, fallback = '/'): string {
  // Typed as a string, but next-auth hands over whatever a JSON body held.
  if (typeof value !== 'string' || value.length > 2048 || !value.startsWith('/')) return fallback;
  // Browsers treat `\` as `/` and drop tabs and newlines: neither belongs in a path we produced.
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  // Judged after normalisation: `/.//host` resolves to the path `//host`, which a browser reads as a host.
  if (url.origin !== BASE || HOST_RELATIVE.test(url.pathname)) return fallback;
  // Returning to the sign-in page itself would only show the form again.
  if (url.pathname === SIGN_IN || url.pathname.startsWith(`${SIGN_IN}/`)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * next-auth's redirect callback: where a sign-in or sign-out sends the browser. A path, or an absolute URL
 * of this site, is judged by its path as above; anything else goes to the site's root.
 */
export function sameSiteRedirect(url: unknown, baseUrl: string): string {
  const path = typeof url === 'string' && url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
  return `${baseUrl}${safeCallbackPath(path as string)}`;
}

/** The sign-in page, remembering `path` (when there is one worth returning to). */
export function signInPath(path: string | null | undefined, home?: string): string {
  const back = safeCallbackPath(path, '');
  return back && back !== '/' && back !== home ? `${SIGN_IN}?callbackUrl=${encodeURIComponent(back)}` : SIGN_IN;
}
