// The dashboard's sign-in: next-auth v4, Credentials provider, JWT sessions. The JWT carries `sub` (the user
// id) and `sid` (a random id made at sign-in and kept across refreshes): lib/auth/session.ts reads both to
// authenticate /api/v4 calls and to derive the session's CSRF token.
import { randomUUID } from 'node:crypto';
import type { NextAuthOptions, Session } from 'next-auth';
import { getServerSession } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { db } from '../db/client';
import type { User } from '../db/generated/client';
import { verifyPassword } from './password';
import { safeCallbackPath } from './callback-path';
import { csrfTokenFor } from './session';

// One week, as GitLab's default session expiry.
const SESSION_MAX_AGE = 7 * 24 * 60 * 60;

async function findByLogin(login: string): Promise<User | null> {
  const field = login.includes('@') ? 'email' : 'username';
  return db().user.findFirst({ where: { [field]: { equals: login, mode: 'insensitive' } } });
}

/** Checks a login (username or email) and password; null when either is wrong. Throws for blocked users. */
export async function authorizeCredentials(login: string, password: string): Promise<User | null> {
  if (!login || !password) return null;
  const user = await findByLogin(login.trim());
  if (!user || !(await verifyPassword(user.passwordDigest, password))) return null;
  // Only after the password matched, so the message reveals nothing to a guesser.
  if (user.state !== 'active') throw new Error('blocked');
  return db().user.update({
    where: { id: user.id },
    data: { lastSignInAt: user.currentSignInAt ?? new Date(), currentSignInAt: new Date() },
  });
}

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE, updateAge: 24 * 60 * 60 },
  pages: { signIn: '/sign-in', error: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Runway',
      credentials: {
        username: { label: 'Username or primary email', type: 'text' },
        password: { label: 'Password', type: 'password' },
      },
      async authorize(credentials) {
        const user = await authorizeCredentials(credentials?.username ?? '', credentials?.password ?? '');
        if (!user) return null;
        return { id: String(user.id), name: user.name, email: user.email, username: user.username };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.sub = String(user.id);
        token.sid = randomUUID();
        token.username = (user as { username?: string }).username;
      }
      return token;
    },
    async session({ session, token }) {
      return {
        ...session,
        user: { ...session.user, id: Number(token.sub), username: token.username as string | undefined },
        sid: token.sid as string,
      } as Session;
    },
    async redirect({ url, baseUrl }) {
      if (url.startsWith('/')) return `${baseUrl}${safeCallbackPath(url)}`;
      return url.startsWith(`${baseUrl}/`) ? url : baseUrl;
    },
  },
};

export interface DashboardSession {
  user: Pick<User, 'id' | 'username' | 'name' | 'email' | 'admin'>;
  csrfToken: string;
}

/**
 * The signed-in user for a server component, or null. The user is re-read so a blocked or deleted
 * user is signed out of the dashboard just as the API already ignores their session.
 */
export async function dashboardSession(): Promise<DashboardSession | null> {
  const session = (await getServerSession(authOptions)) as (Session & { sid?: string; user?: { id?: number } }) | null;
  const userId = session?.user?.id;
  if (!session?.sid || !userId || !Number.isSafeInteger(userId)) return null;
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, name: true, email: true, admin: true, state: true },
  });
  if (!user || user.state !== 'active') return null;
  const { state: _state, ...visible } = user;
  return { user: visible, csrfToken: csrfTokenFor(session.sid) };
}
