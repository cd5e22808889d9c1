// next-auth's endpoints (/api/auth/*): CSRF, credentials callback, session, sign-out.
import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/next-auth';

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
