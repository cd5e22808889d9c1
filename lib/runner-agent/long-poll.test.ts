// Long polling on the embedded database (in-memory PGlite), where notifications stay in process and a
// held poll re-reads its runner's value: held while unchanged, answered when the row changes or is
// deleted, at once when last_update differs or long polling is off, and released on abort and shutdown.
// The PostgreSQL server's LISTEN/NOTIFY path is tested end to end in tests/api/runner-fast-path.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useInMemoryDatabase } from '../db/test-database';
import { db } from '../db/client';
import { lastUpdateValue } from './heartbeat';
import { IN_PROCESS_FLAG } from '../notifications/hub';
import { heldPollCount, holdWhileUnchanged, releaseHeldPolls, TOO_MANY_HELD_POLLS } from './long-poll';

describe('[RUNNERS] long polling on the embedded database', () => {
  useInMemoryDatabase({ migrate: true });
  let n = 0;

  beforeAll(() => {
    process.env[IN_PROCESS_FLAG] = 'true';
  });
  afterAll(() => {
    delete process.env[IN_PROCESS_FLAG];
    delete process.env.RUNWAY_LONG_POLLING_SECONDS;
  });
  beforeEach(() => {
    process.env.RUNWAY_LONG_POLLING_SECONDS = '5';
  });

  async function runner() {
    n += 1;
    return db().runner.create({ data: { runnerType: 'instance_type', tokenDigest: `digest-${n}-${Date.now()}` } });
  }

  const reread = (id: number) => async () => {
    const row = await db().runner.findUnique({ where: { id } });
    return row ? lastUpdateValue(row) : null;
  };

  function hold(r: { id: number; updatedAt: Date }, opts: { lastUpdate?: string; signal?: AbortSignal } = {}) {
    const value = lastUpdateValue(r);
    const started = Date.now();
    return holdWhileUnchanged({
      runnerId: r.id,
      lastUpdate: opts.lastUpdate ?? value,
      value,
      signal: opts.signal ?? new AbortController().signal,
      reread: reread(r.id),
    }).then((answer) => ({ answer, elapsed: Date.now() - started }));
  }

  it('answers at once when last_update differs or is absent, and when long polling is off', async () => {
    const r = await runner();
    const value = lastUpdateValue(r);
    expect((await hold(r, { lastUpdate: 'other' })).answer).toBe(value);
    expect(await holdWhileUnchanged({ runnerId: r.id, lastUpdate: undefined, value, signal: new AbortController().signal, reread: reread(r.id) })).toBe(value);
    process.env.RUNWAY_LONG_POLLING_SECONDS = '0';
    const off = await hold(r);
    expect(off.answer).toBe(value);
    expect(off.elapsed).toBeLessThan(1000);
  });

  it('holds until the runner changes, then answers its new value', async () => {
    const r = await runner();
    const held = hold(r);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heldPollCount()).toBe(1);
    const paused = await db().runner.update({ where: { id: r.id }, data: { active: false } });
    const { answer, elapsed } = await held;
    expect(answer).toBe(lastUpdateValue(paused));
    expect(elapsed).toBeLessThan(4000);
    expect(heldPollCount()).toBe(0);
  });

  it('answers null (the endpoint then answers 403) when the runner is deleted', async () => {
    const r = await runner();
    const held = hold(r);
    await db().runner.delete({ where: { id: r.id } });
    expect((await held).answer).toBeNull();
  });

  it('answers the unchanged value when the time is up, or when the client goes away', async () => {
    process.env.RUNWAY_LONG_POLLING_SECONDS = '1';
    const r = await runner();
    const timedOut = await hold(r);
    expect(timedOut.answer).toBe(lastUpdateValue(r));
    expect(timedOut.elapsed).toBeGreaterThanOrEqual(950);
    process.env.RUNWAY_LONG_POLLING_SECONDS = '5';
    const controller = new AbortController();
    const gone = hold(r, { signal: controller.signal });
    controller.abort();
    expect((await gone).answer).toBe(lastUpdateValue(r));
    expect(heldPollCount()).toBe(0);
  });

  it('holds at most RUNWAY_MAX_HELD_POLLS_PER_RUNNER polls of one runner; one more is TOO_MANY_HELD_POLLS', async () => {
    process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER = '2';
    try {
      const [r, other] = [await runner(), await runner()];
      const aborts = [new AbortController(), new AbortController(), new AbortController(), new AbortController()];
      const held = [hold(r, { signal: aborts[0].signal }), hold(r, { signal: aborts[1].signal })];
      expect(heldPollCount()).toBe(2);
      expect((await hold(r)).answer).toBe(TOO_MANY_HELD_POLLS);
      // Not another runner's, nor a poll that is not held.
      held.push(hold(other, { signal: aborts[2].signal }));
      expect(heldPollCount()).toBe(3);
      expect((await hold(r, { lastUpdate: 'other' })).answer).toBe(lastUpdateValue(r));
      aborts[0].abort();
      await held[0];
      held.push(hold(r, { signal: aborts[3].signal }));
      expect(heldPollCount()).toBe(3);
      aborts.forEach((a) => a.abort());
      expect((await Promise.all(held)).map((x) => x.answer)).toEqual([lastUpdateValue(r), lastUpdateValue(r), lastUpdateValue(other), lastUpdateValue(r)]);
    } finally {
      delete process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER;
    }
  });

  it('answers every held poll at shutdown, spread over the given time, and holds no new one', async () => {
    const rs = [await runner(), await runner(), await runner(), await runner()];
    const held = rs.map((r) => hold(r).then((x) => ({ ...x, at: Date.now() })));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heldPollCount()).toBe(4);
    const released = Date.now();
    await releaseHeldPolls(600);
    const answers = await Promise.all(held);
    expect(answers.map((x) => x.answer)).toEqual(rs.map((r) => lastUpdateValue(r)));
    const after = answers.map((x) => x.at - released).sort((a, b) => a - b);
    // The first at once, the last about 450 ms later (4 over 600 ms): not all together.
    expect(after[0]).toBeLessThan(150);
    expect(after[3]).toBeGreaterThanOrEqual(350);
    expect(after[3]).toBeLessThan(1_000);
    const again = await hold(rs[0]);
    expect(again.elapsed).toBeLessThan(1000);
  });
});
