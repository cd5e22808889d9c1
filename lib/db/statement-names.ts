// Named (prepared) statements for the pg adapter. Unnamed statements are planned on every execution;
// a named one is parsed once per connection and PostgreSQL can reuse its plan (plan_cache_mode auto),
// which for Runway's short indexed reads is most of their cost (the plan takes longer than the run).

/** Distinct statement texts this process will name; further texts run unnamed, so memory stays bounded. */
export const MAX_NAMED_STATEMENTS = 2000;

/**
 * A statementNameGenerator for @prisma/adapter-pg: the same text always gets the same name (a counter;
 * names only need to be unique per session, and on a PostgreSQL server each connection has its own).
 */
export type StatementNamer = (query: { sql: string }) => string | undefined;

export function statementNamer(limit = MAX_NAMED_STATEMENTS): StatementNamer {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= limit) return undefined;
      name = `rw${names.size}`;
      names.set(sql, name);
    }
    return name;
  };
}

/**
 * Whether the operator allows prepared statements: yes unless RUNWAY_DB_PREPARED_STATEMENTS=false (poolers in
 * transaction mode without prepared-statement support). The database has its say too (sessionAwareNamer).
 */
export function preparedStatementsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.RUNWAY_DB_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (v) return ['true', '1', 'yes'].includes(v);
  return true;
}

/** Whether RUNWAY_DB_PREPARED_STATEMENTS says true in so many words (a pooler that tracks prepared statements). */
export function preparedStatementsExplicitlyOn(env: Record<string, string | undefined> = process.env): boolean {
  return ['true', '1', 'yes'].includes(env.RUNWAY_DB_PREPARED_STATEMENTS?.trim().toLowerCase() ?? '');
}

/**
 * Asked once per pool: is every connection a session of its own? Not on PGlite (the embedded database): its
 * socket server multiplexes every connection, of every process, onto its one session, where a statement
 * prepared by one connection stays (even after that socket closes) and the next connection that prepares
 * the same name fails with 42P05. The engine says so itself, whatever URL or process reached it.
 */
export const SHARED_SESSION_PROBE = `SELECT strpos(version(), 'PGlite') > 0 AS shared`;

/**
 * Names statements only once the database has answered that each connection has a session of its own; until
 * then (and on a shared session, always) statements run unnamed. `askShared` runs SHARED_SESSION_PROBE on
 * the pool: started by the first statement, not awaited by it, and asked again after a failure.
 */
export function sessionAwareNamer(askShared: () => Promise<boolean>, namer: StatementNamer = statementNamer()): StatementNamer {
  let ownSession: boolean | undefined;
  let asking = false;
  return (query) => {
    if (ownSession) return namer(query);
    if (ownSession === undefined && !asking) {
      asking = true;
      askShared().then(
        (shared) => (ownSession = !shared),
        () => (asking = false),
      );
    }
    return undefined;
  };
}
