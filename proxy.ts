// Runs before the dashboard's pages only (see `matcher`): passes the requested path and query to the
// server layout, which needs it to send a signed-out visitor to /sign-in?callbackUrl=<that page>.
// Layouts are not told the URL otherwise. Never on /api, so API latency is untouched.
import { NextResponse, type NextRequest } from 'next/server';
import { REQUESTED_PATH_HEADER } from './lib/auth/requested-path';

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

// Every page of the dashboard (project and group pages live at the root, as GitLab's do): all but the API,
// Next.js's assets, the icons and the sign-in page itself.
export const config = {
  matcher: ['/((?!api/|_next/|-/(?:health|liveness|readiness)$|favicon\\.ico$|icon\\.svg$|sign-in).*)'],
};
