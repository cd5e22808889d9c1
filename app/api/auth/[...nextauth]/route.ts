// next-auth's endpoints (/api/auth/*): CSRF, credentials callback, session, sign-out. Options are made per
// request so a sign-in can record the client's address and browser on its session. Posting credentials
// is GitLab's protected path /users/sign_in: throttled per client IP before next-auth sees it.
import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptionsFor } from '@/lib/auth/next-auth';
import { externalUrl } from '@/lib/config/env';
import { clientIp } from '@/lib/rate-limits/client-ip';
import { limitSignIn } from '@/lib/rate-limits/service';
import { RATE_LIMITED_CODE, signInPath } from '@/lib/rate-limits/sign-in';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(req: NextRequest, ctx: RouteContext) {
  return NextAuth(req, ctx, authOptionsFor({ ip: clientIp(req.headers), userAgent: req.headers.get('user-agent') }));
}

async function post(req: NextRequest, ctx: RouteContext): Promise<Response> {
  if (new URL(req.url).pathname === signInPath) {
    const throttled = await limitSignIn(req);
    if (throttled) {
      // next-auth's own client (json=true) reads a JSON answer naming an error code; a plain form post
      // gets GitLab's text/plain "Retry later".
      const form = await req.formData().catch(() => null);
      if (form?.get('json') !== 'true') return throttled.response;
      const url = `${externalUrl()}/sign-in?error=${RATE_LIMITED_CODE}`;
      return Response.json({ url }, { status: 429, headers: throttled.headers });
    }
  }
  return handler(req, ctx);
}

export { handler as GET, post as POST };
