// First start: the instance settings row and the admin `root`. Idempotent, so every start (and every CLI
// command) may run it. The session secret is the server's alone (lib/server/secret, from start).
import { randomBytes } from 'node:crypto';
import { db } from '../db/client';
import { insertUser } from '../users/service';

export interface BootstrapResult {
  /** Set only when root was created just now with a generated password: print it once. */
  generatedRootPassword?: string;
  rootCreated: boolean;
}

export async function bootstrap(): Promise<BootstrapResult> {
  const prisma = db();
  // One statement that cannot race: Prisma's upsert reads, then inserts, so two instances starting together
  // could both insert and one fail on the primary key.
  await prisma.$executeRaw`INSERT INTO application_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING`;
  const existing = await prisma.user.findUnique({ where: { username: 'root' }, select: { id: true } });
  if (existing) return { rootCreated: false };
  const provided = process.env.INITIAL_ROOT_PASSWORD;
  const password = provided ?? randomBytes(18).toString('base64url');
  try {
    await prisma.$transaction((tx) => insertUser(tx, { username: 'root', name: 'Administrator', email: 'admin@example.com', password, admin: true }));
  } catch (err) {
    // Another instance starting at the same moment created root first.
    if ((err as { code?: string }).code === 'P2002') return { rootCreated: false };
    throw err;
  }
  return { rootCreated: true, generatedRootPassword: provided ? undefined : password };
}
