// The runner demo, seeded in-process against the test run's database, must tell one story: a runner that is
// not in contact (offline or stale) shows no job that ran after its last contact, so the fleet overview
// never lists a stale runner among this week's busiest. Only the demo's runners: other test files make runners
// in the same database at the same time.
import { describe, expect, it } from 'vitest';
import { inProcessDatabase } from '../support/in-process-db';

const database = inProcessDatabase();

describe('[RUNNERS] demo seed', () => {
  it('gives runners out of contact no jobs after their last contact', { timeout: 120_000 }, async () => {
    const { seedPlatformDemo } = await import('../../lib/seed/platform');
    const { seedRunnersDemo, DEMO_RUNNER_DESCRIPTIONS } = await import('../../lib/seed/runners');
    await seedPlatformDemo();
    await seedRunnersDemo();
    const rows = await database.db().$queryRaw<{ description: string; contacted_at: Date | null; after: bigint; week: bigint }[]>`
      SELECT r.description, r.contacted_at,
             count(b.id) FILTER (WHERE b.finished_at > r.contacted_at OR b.started_at > r.contacted_at) AS after,
             count(b.id) FILTER (WHERE b.created_at > now() - interval '7 days') AS week
        FROM ci_runners r LEFT JOIN ci_builds b ON b.runner_id = r.id
       WHERE r.description = ANY(${[...DEMO_RUNNER_DESCRIPTIONS]}::text[])
         AND (r.contacted_at IS NULL OR r.contacted_at < now() - interval '2 hours')
         AND EXISTS (SELECT 1 FROM ci_builds x WHERE x.runner_id = r.id)
       GROUP BY r.id`;
    // The demo has offline and stale runners with history, so this is not vacuous.
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Number(r.after), `${r.description}: jobs after its last contact`).toBe(0);
      const stale = r.contacted_at === null || r.contacted_at.getTime() < Date.now() - 7 * 86_400_000;
      if (stale) expect(Number(r.week), `${r.description}: stale, yet jobs this week`).toBe(0);
    }
  });
});
