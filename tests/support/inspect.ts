// Direct reads (and the odd fixture write) on the API test server's database, for what the API does not show.
import pg from 'pg';
import { inject } from 'vitest';

export async function inspect<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('inspectUrl') });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
