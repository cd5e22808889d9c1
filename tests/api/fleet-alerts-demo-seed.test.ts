// The fleet alerts' demo data, seeded in-process against the test run's database (twice: it must be
// idempotent), then read through the alerts API as the page reads it. Other test files make rules and
// runners in the same database at the same time: only the demo's rules are looked at.
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { inProcessDatabase } from '../support/in-process-db';

inProcessDatabase();

const NAMES = ['Instance runners online', 'GPU runners', 'Runners going offline', 'Slow job pickup'];

describe('[ALERTS] fleet alerts demo seed', () => {
  it('adds four rules with past alerts and deliveries, once, and the check fires the tag no online runner has', { timeout: 180_000 }, async () => {
    const { seedPlatformDemo } = await import('../../lib/seed/platform');
    const { seedRunnersDemo } = await import('../../lib/seed/runners');
    const { seedFleetAlertsDemo } = await import('../../lib/seed/fleet-alerts');
    await seedPlatformDemo();
    await seedRunnersDemo();
    await seedFleetAlertsDemo();
    await seedFleetAlertsDemo();

    const rules = await api('GET', '/runners/alert_rules', { token: rootToken(), query: { per_page: 100 } });
    expect(rules.status).toBe(200);
    const demo = rules.body.filter((r: any) => NAMES.includes(r.name));
    expect(demo.map((r: any) => r.name).sort()).toEqual([...NAMES].sort());
    const byName = Object.fromEntries(demo.map((r: any) => [r.name, r]));
    // shared-gpu never contacted: no online runner has the tag gpu.
    expect(byName['GPU runners']).toMatchObject({ kind: 'tag_without_online_runner', tag: 'gpu', state: 'firing', last_value: 0 });
    expect(byName['Instance runners online'].last_checked_at).not.toBeNull();
    // Disabled: never checked.
    expect(byName['Slow job pickup']).toMatchObject({ enabled: false, state: 'unknown', last_checked_at: null });
    expect(byName['Runners going offline']).toMatchObject({ webhook_url: 'https://chat.example.invalid/hooks/runner-fleet' });

    const alerts = await api('GET', '/runners/alerts', { token: rootToken(), query: { per_page: 100 } });
    const mine = alerts.body.filter((a: any) => NAMES.includes(a.rule.name));
    const resolved = mine.filter((a: any) => a.state === 'resolved');
    expect(resolved).toHaveLength(4);
    expect(resolved.find((a: any) => a.rule.name === 'Slow job pickup')).toMatchObject({
      value: 412,
      threshold: 300,
      message: 'Job queue wait p95 is 412 s over the last 60 minutes, above 300 s',
    });
    expect(mine.filter((a: any) => a.rule.name === 'GPU runners' && a.state === 'firing')).toHaveLength(1);

    const deliveries = await api('GET', `/runners/alert_rules/${byName['Runners going offline'].id}/deliveries`, { token: rootToken() });
    expect(deliveries.body.map((d: any) => [d.event, d.status, d.attempts, d.response_status])).toEqual([
      ['resolved', 'delivered', 2, 200],
      ['fired', 'delivered', 1, 200],
    ]);
  });
});
