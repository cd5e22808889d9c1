// next-auth's endpoints (/api/auth/*): CSRF, credentials callback, session, sign-out. Options are made per
// request so a sign-in can record the client's address and browser on its session. Input next-auth would
// answer with a 500 or plain text is refused first with a JSON 4xx (lib/auth/next-auth-input.ts). Posting
// credentials is GitLab's protected path /users/sign_in: throttled per client IP before next-auth sees it.
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { checkAuthRequest, jsonRefusal } from '@/lib/auth/next-auth-input';
import { authOptionsFor } from '@/lib/sessions/next-auth';
import { externalUrl } from '@/lib/config/env';
import { clientIp } from '@/lib/rate-limits/client-ip';
import { limitSignIn } from '@/lib/rate-limits/service';
import { rateLimitedCode, signInPath } from '@/lib/rate-limits/sign-in';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function throttled(req: Request): Promise<Response | null> {
  if (req.method !== 'POST' || new URL(req.url).pathname !== signInPath) return null;
  const limited = await limitSignIn(req);
  if (!limited) return null;
  // next-auth's own client (json=true) reads a JSON answer naming an error code, which carries the seconds
  // of Retry-After so the form can say when to retry (next-auth passes on only `error`); a plain form post
  // gets GitLab's text/plain "Retry later".
  const form = await req.formData().catch(() => null);
  if (form?.get('json') !== 'true') return limited.response;
  const url = `${externalUrl()}/sign-in?error=${rateLimitedCode(Number(limited.headers['Retry-After']))}`;
  return Response.json({ url }, { status: 429, headers: limited.headers });
}

async function handler(req: NextRequest, ctx: RouteContext): Promise<Response> {
  const checked = await checkAuthRequest(req, (await ctx.params).nextauth ?? [], externalUrl());
  if (checked instanceof Response) return checked;
  const limited = await throttled(checked);
  if (limited) return limited;
  const options = authOptionsFor({ ip: clientIp(req.headers), userAgent: req.headers.get('user-agent') });
  return jsonRefusal(await NextAuth(new NextRequest(checked), ctx, options));
}

export { handler as GET, handler as HEAD, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
