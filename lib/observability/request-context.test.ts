import { describe, expect, it } from 'vitest';
import { currentRequest, markLongLived, recordDbStatement, recordUser, withRequestContext, type RequestContext } from './request-context';

/** Runs `body` as a request listener would run, and hands back the context it ran in. */
function inRequest(body: () => Promise<void>): Promise<RequestContext> {
  return new Promise((resolve, reject) => {
    withRequestContext(() => {
      const ctx = currentRequest()!;
      body().then(() => resolve(ctx), reject);
    })();
  });
}

describe('[OPS] request context', () => {
  it('gathers database time, the user and the long-lived mark of its own request only, across awaits', async () => {
    const tick = () => new Promise((r) => setTimeout(r, 1));
    const [a, b] = await Promise.all([
      inRequest(async () => {
        recordDbStatement(0.25);
        await tick();
        recordDbStatement(0.5);
        recordUser({ id: 7, username: 'alice' });
      }),
      inRequest(async () => {
        await tick();
        recordDbStatement(1);
        markLongLived('runner_poll');
        markLongLived('event_stream');
      }),
    ]);
    expect(a).toMatchObject({ dbSeconds: 0.75, dbCount: 2, user: { id: 7, username: 'alice' } });
    expect(a.longLived).toBeUndefined();
    expect(b).toMatchObject({ dbSeconds: 1, dbCount: 1, longLived: 'runner_poll' });
    expect(b.user).toBeUndefined();
  });

  it('tells the request metrics once when the request turns long-lived', async () => {
    let calls = 0;
    await inRequest(async () => {
      currentRequest()!.onLongLived = () => calls++;
      markLongLived('event_stream');
      markLongLived('event_stream');
    });
    expect(calls).toBe(1);
  });

  it('does nothing outside a request (background jobs, the CLI)', () => {
    expect(currentRequest()).toBeUndefined();
    expect(() => {
      recordDbStatement(1);
      recordUser({ id: 1, username: 'root' });
      markLongLived('runner_poll');
    }).not.toThrow();
  });
});
