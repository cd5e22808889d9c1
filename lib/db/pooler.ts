// Telling a pooler from the server: what needs a session of its own (the migration lock, the notification
// hub's LISTEN) must not travel over a pooler in transaction mode.
import type pg from 'pg';

/**
 * Whether `client` reaches PostgreSQL through a pooler (PgBouncer, Odyssey, pgpool): a pooler answers the
 * connection with a process id of its own (BackendKeyData), which is not the server session's pg_backend_pid().
 */
export async function throughPooler(client: pg.Client): Promise<boolean> {
  const announced = (client as unknown as { processID?: number | null }).processID;
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return typeof announced === 'number' && rows[0]?.pid !== announced;
}
