// Reads on the hottest paths (token authentication, runner lists, details, job pages, runner polls) go
// to the driver directly: the same pool and statement names as Prisma, without the per-value mapping
// of $queryRaw, which costs more CPU than the driver itself on a page of rows. Values come back as
// $queryRaw gives them for the types these statements select (int4, bool, text, json, timestamptz,
// date); int8 and numeric would arrive as strings, so those statements cast counts to int.
import pg from 'pg';
import { connection } from './client';
import type { Sql } from './sql';
import { observeStatement } from '../metrics/registry';
import { recordDbStatement } from '../observability/request-context';

const DATE_OID = 1082;
/** `date` as Prisma maps it: midnight UTC (pg's default would use the process time zone). */
const parseDate = (value: string) => new Date(`${value}T00:00:00.000Z`);

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === DATE_OID && format !== 'binary') return parseDate;
    return pg.types.getTypeParser(oid, format);
  },
};

/** One statement on the pool, timed for the metrics and the request log. */
async function run(query: Sql): Promise<pg.QueryResult> {
  const { pool, name } = connection();
  const text = query.text;
  const started = performance.now();
  const result = await pool.query({ name: name?.({ sql: text }), text, values: query.values as unknown[], types });
  const seconds = (performance.now() - started) / 1000;
  observeStatement(text, seconds);
  recordDbStatement(seconds);
  return result;
}

/** The rows of a read-only statement, as plain objects keyed by column name. */
export async function queryRows<T>(query: Sql): Promise<T[]> {
  return (await run(query)).rows as T[];
}

/**
 * A write through the same pool and statement names, for batched writes whose parameters are arrays
 * (unnest): the driver sends a JS array as a PostgreSQL array. Returns the rows affected.
 */
export async function executeStatement(query: Sql): Promise<number> {
  return (await run(query)).rowCount ?? 0;
}
