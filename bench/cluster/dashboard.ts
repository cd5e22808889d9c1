// The cluster benchmark's dashboard client: what an open runner list page does. It holds the live event
// stream (GET /api/v4/runners/events) through the load balancer, reconnecting as an EventSource does (after
// the stream's `retry`, with Last-Event-ID), and reads the runner list every 250 ms, timing each answer.
import http from 'node:http';
import { request, sleep, type Target } from '../sim-runner';

export interface ReceivedEvent {
  runnerId: number;
  action: string;
  at: number;
}

export interface ListSample {
  at: number;
  ms: number;
  status: number;
}

export class Dashboard {
  readonly events: ReceivedEvent[] = [];
  /** When a `resync` arrived (the page refetches everything). */
  readonly resyncs: number[] = [];
  readonly list: ListSample[] = [];
  /** Stream (re)connections and their failures. */
  connects = 0;
  streamErrors: string[] = [];
  private lastEventId: string | undefined;
  private running = true;
  private current: http.ClientRequest | null = null;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  private done: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly target: Target,
    private readonly token: string,
    private readonly listPath = '/api/v4/runners/all?per_page=20',
  ) {}

  start(): void {
    this.done = Promise.all([this.streamLoop(), this.listLoop()]);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.current?.destroy();
    await this.done;
    this.agent.destroy();
  }

  private async listLoop() {
    while (this.running) {
      const t0 = Date.now();
      let status = 0;
      try {
        status = (await request(this.target, 'GET', this.listPath, { 'private-token': this.token }, undefined, 30_000, this.agent)).status;
      } catch {
        status = 0;
      }
      this.list.push({ at: t0, ms: Date.now() - t0, status });
      await sleep(250);
    }
  }

  private async streamLoop() {
    while (this.running) {
      const retryMs = await this.openStream();
      if (this.running) await sleep(retryMs);
    }
  }

  /** One connection of the stream until it ends; what to wait before the next (its `retry`, else 2 s). */
  private openStream(): Promise<number> {
    return new Promise((resolve) => {
      let retry = 2_000;
      const headers: Record<string, string> = { 'private-token': this.token, accept: 'text/event-stream' };
      if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
      this.connects++;
      const req = http.get({ host: this.target.host ?? '127.0.0.1', port: this.target.port, path: '/api/v4/runners/events', headers }, (res) => {
        if (res.statusCode !== 200) {
          this.streamErrors.push(`status ${res.statusCode}`);
          res.resume();
          res.on('end', () => resolve(retry));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const r = this.onBlock(block);
            if (r !== undefined) retry = r;
          }
        });
        res.on('end', () => resolve(retry));
        res.on('error', () => resolve(retry));
      });
      this.current = req;
      req.on('error', (err) => {
        if (this.running) this.streamErrors.push(err.message);
        resolve(retry);
      });
    });
  }

  /** One event block; its `retry` if it has one. */
  private onBlock(block: string): number | undefined {
    let event = 'message';
    let data = '';
    let retry: number | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data += value;
      else if (field === 'id') this.lastEventId = value;
      else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    }
    const at = Date.now();
    if (event === 'resync') this.resyncs.push(at);
    else if (event === 'runner' && data) {
      try {
        const v = JSON.parse(data) as { id?: unknown; action?: unknown };
        if (typeof v.id === 'number') this.events.push({ runnerId: v.id, action: String(v.action), at });
      } catch {
        this.streamErrors.push(`bad event data: ${data.slice(0, 80)}`);
      }
    }
    return retry;
  }
}
