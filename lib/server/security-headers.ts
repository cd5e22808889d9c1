// The hardening headers GitLab sends (Rails' default headers, its API's X-Frame-Options and nosniff, HSTS
// from its nginx), set by the http wrapper before any handler runs, so that every answer carries them:
// pages, the API and its errors, the runner fast path, health checks, static assets, the wrapper's own
// refusals. Pages replace the Content-Security-Policy with their nonce-based one (proxy.ts).
import type http from 'node:http';

// GitLab.com's max-age, one year (Omnibus's nginx now defaults to two); no includeSubDomains, as GitLab.
const HSTS = 'max-age=31536000';

// For every answer that is not a page (JSON, files, text): nothing in it may load or run if a browser is
// sent to it, and only Runway's own pages may frame it.
const NOT_A_PAGE_CSP = "default-src 'none'; frame-ancestors 'self'";

/** The headers for every response of an instance reached at `externalUrl`. */
export function securityHeaders(externalUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'Content-Security-Policy': NOT_A_PAGE_CSP,
  };
  // Browsers honour HSTS only over https; sent only when users are told to use https, never locking out an
  // instance served over plain http.
  if (new URL(externalUrl).protocol === 'https:') headers['Strict-Transport-Security'] = HSTS;
  return headers;
}

/**
 * Sets `headers` on a response before its handler runs. A handler's own value for one of them is then
 * ignored for Next.js route handlers (Next.js keeps a header already set), so the policy stays in one place.
 */
export function setSecurityHeaders(res: http.ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]);
}
