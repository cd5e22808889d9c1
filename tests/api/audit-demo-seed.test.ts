// The demo audit history, seeded in-process against the test run's database (twice: it must be
// idempotent) after the platform and runner demos, then read back through GET /audit_events.
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { inProcessDatabase } from '../support/in-process-db';

const database = inProcessDatabase();

describe('[AUDIT] demo seed', () => {
  it('writes a month of runner changes once, readable through the API', { timeout: 120_000 }, async () => {
    const { seedPlatformDemo } = await import('../../lib/seed/platform');
    const { seedRunnersDemo } = await import('../../lib/seed/runners');
    const { seedAuditDemo } = await import('../../lib/seed/audit');
    await seedPlatformDemo();
    await seedRunnersDemo();
    // Only the demo runners' events: other test files write to the same database meanwhile.
    const demoRunners = (
      await database
        .db()
        .runner.findMany({ where: { description: { in: ['fleet-canary', 'shared-macos', 'platform-k8s', 'web-builder'] } }, select: { id: true } })
    ).map((r) => r.id);
    const count = () => database.db().auditEvent.count({ where: { targetType: 'Ci::Runner', targetId: { in: demoRunners } } });
    await seedAuditDemo();
    const first = await count();
    expect(first).toBe(7);
    await seedAuditDemo();
    expect(await count()).toBe(first);

    const canary = await database.db().runner.findFirstOrThrow({ where: { description: 'fleet-canary' }, select: { id: true } });
    const res = await api('GET', `/runners/${canary.id}/audit_events`, { token: rootToken() });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.event_name)).toEqual(['ci_runner_authentication_token_reset', 'ci_runner_updated', 'ci_runner_created']);
    expect(res.body[1].details.changes.locked).toEqual({ from: false, to: true });
    const ages = res.body.map((e: any) => (Date.now() - Date.parse(e.created_at)) / 86_400_000);
    expect(ages[0]).toBeGreaterThan(4);
    expect(ages[2]).toBeLessThan(11);
    expect(JSON.stringify(res.body)).not.toMatch(/glrt-/);
  });
});
