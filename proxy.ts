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

export const config = {
  matcher: ['/admin/:path*', '/-/user_settings/:path*'],
};
