// The dashboard's sign-in: next-auth v4, Credentials provider, JWT sessions. The JWT carries `sub` (the user
// id) and `sid` (the id of the user_sessions row made at sign-in, kept across refreshes): lib/auth/session.ts
// reads both to authenticate /api/v4 calls and to derive the session's CSRF token; the row decides whether
// the session still counts, so sign-out revokes it for good.
import type { CallbacksOptions, NextAuthOptions, Session } from 'next-auth';
import { getServerSession } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { User } from '../db/generated/client';
import { revokeSession, sessionDigest, startSession, type SessionClient } from './service';
import { authorizeCredentials } from './sign-in';
import { sessionUser } from '../api/authenticate';
import { cache } from 'react';
import { sameSiteRedirect } from '../auth/callback-path';
import type { Actor } from '../auth/actor';
import { csrfTokenFor } from '../auth/session';

// One week, as GitLab's default session expiry.
const SESSION_MAX_AGE = 7 * 24 * 60 * 60;

/** Username or email and password, checked for the requesting client (its address counts failures). */
function credentialsFrom(client: SessionClient) {
  return CredentialsProvider({
    name: 'Runway',
    credentials: {
      username: { label: 'Username or primary email', type: 'text' },
      password: { label: 'Password', type: 'password' },
    },
    async authorize(credentials) {
      const user = await authorizeCredentials(credentials?.username, credentials?.password, client.ip);
      if (!user) return null;
      return { id: String(user.id), name: user.name, email: user.email, username: user.username };
    },
  });
}

/** At sign-in, the new JWT names a new session row (with the client's address and browser when known). */
function issueToken(client: SessionClient): CallbacksOptions['jwt'] {
  return async ({ token, user }) => {
    if (user) {
      token.sub = String(user.id);
      token.sid = await startSession(Number(user.id), SESSION_MAX_AGE, client);
      token.username = (user as { username?: string }).username;
    }
    return token;
  };
}

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE, updateAge: 24 * 60 * 60 },
  pages: { signIn: '/sign-in', error: '/sign-in' },
  providers: [credentialsFrom({ ip: null, userAgent: null })],
  events: {
    // next-auth's sign-out hands over the decoded JWT before it clears the cookie.
    async signOut({ token }) {
      const userId = Number(token?.sub);
      if (typeof token?.sid === 'string' && Number.isSafeInteger(userId)) await revokeSession(userId, sessionDigest(token.sid));
    },
  },
  callbacks: {
    jwt: issueToken({ ip: null, userAgent: null }),
    async session({ session, token }) {
      return {
        ...session,
        user: { ...session.user, id: Number(token.sub), username: token.username as string | undefined },
        sid: token.sid as string,
      } as Session;
    },
    async redirect({ url, baseUrl }) {
      return sameSiteRedirect(url, baseUrl);
    },
  },
};

/** The options for one request to /api/auth/*: a sign-in records the requesting client on its session. */
export function authOptionsFor(client: SessionClient): NextAuthOptions {
  return { ...authOptions, providers: [credentialsFrom(client)], callbacks: { ...authOptions.callbacks, jwt: issueToken(client) } };
}

export interface DashboardSession {
  user: Pick<User, 'id' | 'username' | 'name' | 'email' | 'admin'>;
  csrfToken: string;
  /** The viewer as the API sees a session's requests: server components read through the same services with it. */
  actor: Actor;
}

/**
 * The signed-in user for a server component, or null. Session row and user are read as the API reads
 * them, so a revoked session or a blocked or deleted user is signed out of the dashboard too. Read once
 * per request (React's `cache`), whether the layout or a page asks.
 */
export const dashboardSession = cache(async (): Promise<DashboardSession | null> => {
  const session = (await getServerSession(authOptions)) as (Session & { sid?: string; user?: { id?: number } }) | null;
  const userId = session?.user?.id;
  if (!session?.sid || !userId || !Number.isSafeInteger(userId)) return null;
  const user = await sessionUser(session.sid, userId);
  if (!user) return null;
  const { id, username, name, email, admin } = user;
  return {
    user: { id, username, name, email, admin },
    csrfToken: csrfTokenFor(session.sid),
    actor: { user, via: 'session', sessionId: sessionDigest(session.sid) },
  };
});

/**
 * The viewer of a server-rendered page as the API's policies take them (the same actor a request with this
 * session's cookie gets), or null: pages decide "not found" with the services the route handlers use.
 */
export async function dashboardActor(): Promise<Actor | null> {
  return (await dashboardSession())?.actor ?? null;
}
