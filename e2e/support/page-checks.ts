// Checks and seeding shared by the page specs: the page's width against the viewport, and SQL straight
// into the test database for rows the API cannot make (jobs, pipelines, another runner creator).
import { expect, type Page } from '@playwright/test';
import pg from 'pg';

/** The page scrolls only vertically: nothing is wider than the viewport. */
export async function expectNoSideScroll(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
  expect(scroll, `${what}: page ${scroll} px wide in a ${client} px viewport`).toBeLessThanOrEqual(client);
}

export async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: process.env.RUNWAY_E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
