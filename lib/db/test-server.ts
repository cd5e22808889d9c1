// Tests that need a PostgreSQL server skip on the embedded database (no DATABASE_URL), saying why: the
// reason rides in the test's meta, and `npm test` lists each skipped file with it (scripts/test.mjs).

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test is skipped here; set only where it is. */
    skipReason?: string;
  }
}

/** The PostgreSQL server of this test run, if any. */
export const testServerUrl = process.env.DATABASE_URL || undefined;

/**
 * Options for a describe() or it() that needs a PostgreSQL server, because `why` (for example two Runway
 * processes on one database: the embedded one belongs to a single process).
 */
export function needsServer(why: string): { skip: boolean; meta: { skipReason?: string } } {
  return testServerUrl ? { skip: false, meta: {} } : { skip: true, meta: { skipReason: `needs a PostgreSQL server (DATABASE_URL): ${why}` } };
}
