// Runs before every page (see `matcher`), never on /api, so API latency is untouched. Two jobs:
// - the page's Content-Security-Policy with a fresh nonce, on the response and on the request, where
//   Next.js reads the nonce for the scripts it renders (every page is rendered per request for it: the
//   root layout waits for the request);
// - the requested path and query, for the server layout, which needs it to send a signed-out visitor to
//   /sign-in?callbackUrl=<that page>. Layouts are not told the URL otherwise.
import { NextResponse, type NextRequest } from 'next/server';
import { REQUESTED_PATH_HEADER } from './lib/auth/requested-path';
import { cspNonce, pageContentSecurityPolicy } from './lib/server/page-csp';

export function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy(cspNonce(), { dev: process.env.NODE_ENV === 'development' });
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  // Replaces the wrapper's policy for what is not a page (lib/server/security-headers.ts).
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

// Every page (project and group pages live at the root, as GitLab's do, and the sign-in page): all but the
// API, the OAuth paths (JSON, lib/oauth/handlers.ts), Next.js's assets, the health checks and the icons.
export const config = {
  matcher: ['/((?!api/|oauth(?:/|$)|_next/|-/(?:health|liveness|readiness)$|favicon\\.ico$|icon\\.svg$).*)'],
};
