// Simulated gitlab-runner processes for the fleet and cluster benchmarks, and the small measuring helpers
// both use. Each runner polls POST /api/v4/jobs/request as gitlab-runner does (its JSON body with `info`,
// `token`, `system_id` and `last_update` = the previous answer's X-GitLab-Last-Update, the RUNNER-TOKEN
// header, a keep-alive connection of its own), then waits check_interval (3 s) with jitter. Like the agent,
// it honours a 429's Retry-After and otherwise retries a failed request at its next check.
import http from 'node:http';
import { readFileSync } from 'node:fs';

export const CHECK_INTERVAL_MS = 3_000;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Target {
  host?: string;
  port: number;
}

export function request(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  via: http.Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.host ?? '127.0.0.1',
        port: target.port,
        method,
        path,
        agent: via,
        headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers,
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface PollStats {
  polls: number;
  /** Polls that failed: a 5xx, any status but 201/204/429, a reset or a timeout. */
  errors: number;
  errorSamples: string[];
  /** 429s, which the agent waits out (Retry-After) and which are not failures. */
  throttled: number;
  statuses: Record<string, number>;
  /** Durations of polls answered before the long polling time was up (ms). */
  answered: number[];
  held: number;
}

export const newPollStats = (): PollStats => ({ polls: 0, errors: 0, errorSamples: [], throttled: 0, statuses: {}, answered: [], held: 0 });

/** Adds `b` into `a` (the cluster's workers report their own). */
export function addPollStats(a: PollStats, b: PollStats): PollStats {
  a.polls += b.polls;
  a.errors += b.errors;
  a.throttled += b.throttled;
  a.held += b.held;
  for (const s of b.errorSamples) if (a.errorSamples.length < 8) a.errorSamples.push(s);
  for (const [k, v] of Object.entries(b.statuses)) a.statuses[k] = (a.statuses[k] ?? 0) + v;
  for (const ms of b.answered) a.answered.push(ms);
  return a;
}

function retryAfterMs(res: Answer): number {
  const v = Number(res.headers['retry-after']);
  return Number.isFinite(v) && v >= 0 ? v * 1000 : CHECK_INTERVAL_MS;
}

/** One gitlab-runner process with one [[runners]] entry. */
export class SimRunner {
  lastUpdate: string | undefined;
  /** The poll in flight: when it was sent and whether it carried last_update (it may be held). */
  inflight: { since: number; withLastUpdate: boolean; answered?: (at: number) => void } | null = null;
  stopped = false;
  done: Promise<void> = Promise.resolve();
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    readonly id: number,
    readonly token: string,
    readonly systemId: string,
  ) {}

  start(target: Target, holdSeconds: number, stats: () => PollStats, firstDelayMs: number) {
    this.done = this.loop(target, holdSeconds, stats, firstDelayMs);
  }

  private body(): string {
    return JSON.stringify({
      info: {
        name: 'gitlab-runner',
        version: '18.1.2',
        revision: 'a1b2c3d4',
        platform: 'linux',
        architecture: 'amd64',
        executor: 'docker',
        shell: 'bash',
        features: { variables: true, artifacts: true, cache: true, upload_multiple_artifacts: true, refspecs: true },
        config: { gpus: '' },
      },
      token: this.token,
      system_id: this.systemId,
      ...(this.lastUpdate ? { last_update: this.lastUpdate } : {}),
    });
  }

  private async loop(target: Target, holdSeconds: number, stats: () => PollStats, firstDelayMs: number) {
    await sleep(firstDelayMs);
    while (!this.stopped) {
      const t0 = Date.now();
      this.inflight = { since: t0, withLastUpdate: this.lastUpdate !== undefined };
      let wait = CHECK_INTERVAL_MS * (0.75 + Math.random() * 0.5);
      try {
        const res = await request(
          target,
          'POST',
          '/api/v4/jobs/request',
          { 'content-type': 'application/json', 'runner-token': this.token, 'user-agent': 'gitlab-runner 18.1.2 (bench)' },
          this.body(),
          (holdSeconds + 30) * 1000,
          this.agent,
        );
        const ms = Date.now() - t0;
        this.inflight.answered?.(Date.now());
        const s = stats(); // counted in the window it is answered in
        s.polls++;
        s.statuses[res.status] = (s.statuses[res.status] ?? 0) + 1;
        if (res.status === 429) {
          s.throttled++;
          wait = retryAfterMs(res);
        } else if (res.status !== 204 && res.status !== 201) {
          s.errors++;
          if (s.errorSamples.length < 5) s.errorSamples.push(`${res.status} ${res.body.slice(0, 120)}`);
        }
        const header = res.headers['x-gitlab-last-update'];
        if (typeof header === 'string' && header) this.lastUpdate = header;
        if (holdSeconds && ms >= holdSeconds * 1000 - 500) s.held++;
        else s.answered.push(ms);
      } catch (err) {
        const s = stats();
        s.polls++;
        s.errors++;
        if (s.errorSamples.length < 5) s.errorSamples.push((err as Error).message);
      }
      this.inflight = null;
      // gitlab-runner waits check_interval between polls of one runner; jitter spreads the fleet.
      await sleep(wait);
    }
  }
}

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
export function processUsage(pid: number): { cpuS: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuS: ticks / 100, rssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

export const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
