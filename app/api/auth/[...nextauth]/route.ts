// next-auth's endpoints (/api/auth/*): CSRF, credentials callback, session, sign-out. Options are made per
// request so a sign-in can record the client's address and browser on its session.
import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptionsFor } from '@/lib/auth/next-auth';
import { requestIp } from '@/lib/runners/heartbeat';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(req: NextRequest, ctx: RouteContext) {
  return NextAuth(req, ctx, authOptionsFor({ ip: requestIp(req), userAgent: req.headers.get('user-agent') }));
}

export { handler as GET, handler as POST };
