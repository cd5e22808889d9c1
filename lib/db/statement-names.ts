// Named (prepared) statements for the pg adapter. Unnamed statements are planned on every execution;
// a named one is parsed once per connection and PostgreSQL can reuse its plan (plan_cache_mode auto),
// which for Runway's short indexed reads is most of their cost (the plan takes longer than the run).

/** Distinct statement texts this process will name; further texts run unnamed, so memory stays bounded. */
export const MAX_NAMED_STATEMENTS = 2000;

/**
 * A statementNameGenerator for @prisma/adapter-pg: the same text always gets the same name (a counter;
 * names only need to be unique per connection, and each process has its own connections).
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
 * Whether to prepare statements: on by default against a PostgreSQL server; off on the embedded
 * database (its sockets share one session, so two connections preparing one name would collide) and
 * when RUNWAY_DB_PREPARED_STATEMENTS=false (poolers in transaction mode without prepared-statement support).
 */
export function preparedStatementsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.RUNWAY_DB_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (v) return ['true', '1', 'yes'].includes(v);
  return true;
}
