// The cluster benchmark's writer: an admin pausing, unpausing and renaming runners through the load balancer
// all along, a few times a second, each runner in turn. It keeps every write with its answer, so the run can
// check afterwards that each acknowledged write is in the database (none lost) and that the dashboard client
// heard of it (none missed).
import http from 'node:http';
import type pg from 'pg';
import { request, sleep, type Target } from '../sim-runner';

export interface Write {
  runnerId: number;
  field: 'paused' | 'description';
  value: boolean | string;
  sentAt: number;
  answeredAt: number;
  /** 200 when acknowledged; 0 for a network error. */
  status: number;
  error?: string;
}

export class Writer {
  readonly writes: Write[] = [];
  private running = true;
  private done: Promise<void> = Promise.resolve();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly target: Target,
    private readonly token: string,
    private readonly runnerIds: number[],
    private readonly perSecond: number,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
    this.agent.destroy();
  }

  private async loop() {
    let n = 0;
    while (this.running) {
      const runnerId = this.runnerIds[n % this.runnerIds.length];
      const round = Math.floor(n / this.runnerIds.length);
      // Even rounds pause or rename, odd ones undo: every runner alternates between two states.
      const write: Write =
        n % 2 === 0
          ? { runnerId, field: 'paused', value: round % 2 === 0, sentAt: Date.now(), answeredAt: 0, status: 0 }
          : { runnerId, field: 'description', value: `cluster write ${n}`, sentAt: Date.now(), answeredAt: 0, status: 0 };
      n++;
      try {
        const res = await request(
          this.target,
          'PUT',
          `/api/v4/runners/${runnerId}`,
          { 'private-token': this.token, 'content-type': 'application/json' },
          JSON.stringify({ [write.field]: write.value }),
          30_000,
          this.agent,
        );
        write.status = res.status;
        if (res.status !== 200) write.error = res.body.slice(0, 160);
      } catch (err) {
        write.error = (err as Error).message;
      }
      write.answeredAt = Date.now();
      this.writes.push(write);
      await sleep(Math.max(0, 1000 / this.perSecond - (write.answeredAt - write.sentAt)));
    }
  }

  get acknowledged(): Write[] {
    return this.writes.filter((w) => w.status === 200);
  }

  /**
   * Acknowledged writes the database does not hold: for each runner and field, the last acknowledged value
   * must be the stored one, unless a later write that failed (no answer: it may have committed) stored its own.
   */
  async lost(db: pg.Client): Promise<Write[]> {
    const ids = [...new Set(this.writes.map((w) => w.runnerId))];
    const rows = (await db.query('SELECT id, active, description FROM ci_runners WHERE id = ANY($1::int[])', [ids])).rows as {
      id: number;
      active: boolean;
      description: string;
    }[];
    const stored = new Map(rows.map((r) => [r.id, r]));
    const lost: Write[] = [];
    for (const id of ids) {
      for (const field of ['paused', 'description'] as const) {
        const mine = this.writes.filter((w) => w.runnerId === id && w.field === field);
        const lastAck = mine.findLastIndex((w) => w.status === 200);
        if (lastAck < 0) continue;
        const row = stored.get(id);
        const value = row ? (field === 'paused' ? !row.active : row.description) : undefined;
        const candidates = mine.slice(lastAck).filter((w, i) => i === 0 || w.status === 0 || w.status >= 500);
        if (!candidates.some((w) => w.value === value)) lost.push(mine[lastAck]);
      }
    }
    return lost;
  }
}
