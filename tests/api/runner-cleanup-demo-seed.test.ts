// The stale-runner cleanup's demo data, seeded in-process against the test run's database (twice: it must
// be idempotent), then read through the cleanup API as the page reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { inProcessDatabase } from '../support/in-process-db';

inProcessDatabase();

let platform: typeof import('../../lib/seed/platform');
let cleanupSeed: typeof import('../../lib/seed/runner-cleanup');

beforeAll(async () => {
  platform = await import('../../lib/seed/platform');
  cleanupSeed = await import('../../lib/seed/runner-cleanup');
});

describe('[RUNNERS] stale cleanup demo seed', () => {
  it('adds long-stale and never-contacted runners and a past cleanup, once', { timeout: 120_000 }, async () => {
    await platform.seedPlatformDemo();
    await cleanupSeed.seedRunnerCleanupDemo();
    await cleanupSeed.seedRunnerCleanupDemo();
    const preview = await api('GET', '/runners/cleanup', { token: rootToken(), query: { stale_days: 90, per_page: 100 } });
    expect(preview.status).toBe(200);
    const names = preview.body.map((r: any) => r.description);
    for (const name of [
      'old-docker-01',
      'old-docker-02',
      'decommissioned-mac-mini',
      'legacy-shell-runner',
      'ci-spare',
      'website-old-preview',
      'api-perf-lab',
    ]) {
      expect(
        names.filter((n: string) => n === name),
        name,
      ).toHaveLength(1);
    }
    const byGroup = await api('GET', '/runners/cleanup', { token: rootToken(), query: { stale_days: 180, type: 'instance_type', per_page: 100 } });
    expect(byGroup.body.map((r: any) => r.description)).toEqual(expect.arrayContaining(['old-docker-01', 'old-docker-02', 'decommissioned-mac-mini']));
    const runs = await api('GET', '/runners/cleanup/runs', { token: rootToken(), query: { per_page: 100 } });
    const seeded = runs.body.filter((r: any) => r.rule.stale_days === 180 && r.user?.username === 'ada.admin');
    expect(seeded).toHaveLength(1);
    expect(seeded[0]).toMatchObject({ trigger: 'manual', dry_run: false, deleted_count: 2, matched_count: 2 });
    expect(seeded[0].results.map((r: any) => r.result)).toEqual(['deleted', 'deleted']);
  });
});
