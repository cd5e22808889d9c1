import { describe, expect, it } from 'vitest';
import { readiness } from './checks';

describe('[OPS] readiness', () => {
  it('checks the instance only by default: no database is needed to be ready', async () => {
    // No database is configured in unit tests: a database check would fail here.
    expect(await readiness({ draining: false }, false)).toEqual({ status: 200, body: { status: 'ok', master_check: [{ status: 'ok' }] } });
  });

  it('fails while the instance drains for a shutdown', async () => {
    expect(await readiness({ draining: true }, false)).toEqual({
      status: 503,
      body: { status: 'failed', master_check: [{ status: 'failed', message: 'shutting down' }] },
    });
  });

  it('fails while the instance warms up its routes after the start, then passes', async () => {
    expect(await readiness({ draining: false, warming: true }, false)).toEqual({
      status: 503,
      body: { status: 'failed', master_check: [{ status: 'failed', message: 'warming up' }] },
    });
    expect((await readiness({ draining: false, warming: false }, false)).status).toBe(200);
  });
});
