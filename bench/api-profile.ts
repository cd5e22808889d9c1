// Where the CPU of an /api/v4 request goes: `npm run bench:api-profile` (needs a production build).
// Starts Runway with the V8 inspector on loopback, loads each scenario of `npm run bench:runners` with
// autocannon after a warm-up, and samples the server's CPU with the inspector's profiler during the
// measured load only. Each sample's frame is mapped through the build's source maps to the file it came
// from, and its self time is charged to a step of the request (Next.js's dispatch, Runway's wrapper step by
// step, the domain, Prisma, the driver, serialisation, Node's HTTP, GC). Natives (JSON.stringify, crypto,
// regexps) are charged to the nearest caller with a source. Prints a table per scenario in ms per request:
// each step's share of the samples times the CPU the process spent per request (from /proc, as bench:runners
// reads it). Samples are wall-clock ticks of the main thread, so on a busy machine time the thread spent
// descheduled lands on whatever ran next (often a socket write): figures are for a quiet machine.
// Env: as bench:runners (BENCH_RUNNERS, BENCH_JOBS, BENCH_CONNECTIONS, BENCH_ONLY), BENCH_DURATION (default 10),
// BENCH_PROFILE_DIR (where the raw .cpuprofile files go, for Chrome's DevTools; default none).
// Run it with `node --experimental-websocket` on Node 20 (the npm script does): the inspector speaks WebSocket.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { AnyMap, originalPositionFor, type TraceMap } from '@jridgewell/trace-mapping';
import { load, scenarios } from './api-scenarios';
import { seedBench } from './runners-seed';
import { cpuTime, ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY ?? '';
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const log = (s: string) => process.stderr.write(`${s}\n`);

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
class Inspector {
  private next = 1;
  private pending = new Map<number, (v: unknown) => void>();
  private constructor(private ws: WebSocket) {
    ws.addEventListener('message', (e) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id === undefined) return;
      this.pending.get(msg.id)?.(msg.error ? Promise.reject(new Error(msg.error.message)) : msg.result);
      this.pending.delete(msg.id);
    });
  }
  static async connect(port: number): Promise<Inspector> {
    const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', reject, { once: true });
    });
    return new Inspector(ws);
  }
  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.pending.set(id, resolve as (v: unknown) => void));
  }
  close() {
    this.ws.close();
  }
}

// Steps of a request. Runway's own sources (`lib/...`, `app/...`, after stripping the build's relative
// prefixes) are matched first, then the packages by name.
const RUNWAY_STEPS: [string, RegExp][] = [
  ['Prisma (client, query compiler, adapter)', /^lib\/db\/generated\//],
  ['authentication (token, session, user)', /^lib\/(api\/authenticate|auth\/)/],
  ['parameters (query, body, Grape rules)', /^lib\/api\/(input|params|preconditions)\.ts/],
  ['pagination (headers, Link)', /^lib\/api\/pagination\.ts/],
  ['endpoint wrapper (lib/api/handler, response)', /^lib\/api\//],
  ['limits (throttles)', /^lib\/rate-limits\//],
  ['HTTP wrapper (headers, CORS, client address, timeouts, drain)', /^lib\/server\//],
  ['logging, request context, metrics', /^lib\/(log|observability|metrics)\//],
  ['policy', /^lib\/[a-z-]+\/policy\.ts/],
  ['entity (JSON shape)', /^lib\/[a-z-]+\/entity\.ts/],
  ['Runway SQL (queries, lib/db)', /^lib\/([a-z-]+\/queries\.ts|db\/)/],
  ['domain (handlers, services)', /^lib\//],
  ['route files', /^app\//],
];
const PACKAGE_STEPS: [string, RegExp][] = [
  ['Prisma (client, query compiler, adapter)', /@prisma|prisma/],
  ['pg driver', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-[a-z]+)\//],
  ['logging, request context, metrics', /node_modules\/prom-client\//],
  ['Next.js dispatch (router, route module, request/response)', /next\/|src\/(server|shared|client|lib)\/|turbopack/],
  // Next.js hands a route handler a web Request and pipes its web Response to the socket: Node's undici
  // and web streams do that work.
  [
    'web Request/Response and streams (Node, for Next.js)',
    /^node:internal\/(webstreams|deps\/undici|abort_controller|event_target)|^node:internal\/worker\/js_transferable/,
  ],
  ['async context (AsyncLocalStorage promise hooks)', /^node:(internal\/)?async_hooks|async_local_storage/],
  ['Node sockets, node:http, event loop', /^node:/],
];
const ROOT = path.resolve(import.meta.dirname, '..');

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and Node native (program)',
  '(idle)': 'idle',
  '(root)': 'idle',
};

/** Original source of a frame through the chunk's source map (chunks are minified; their maps are not). */
class SourceMapper {
  private maps = new Map<string, TraceMap | null>();
  source(frame: CallFrame): string | null {
    if (!frame.url) return null;
    if (frame.url.startsWith('node:')) return frame.url;
    const file = frame.url.startsWith('file://') ? new URL(frame.url).pathname : frame.url;
    if (!this.maps.has(file)) {
      let map: TraceMap | null = null;
      try {
        map = new AnyMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof AnyMap>[0]);
      } catch {
        map = null; // no map: the file's own path says enough (node_modules outside the bundle)
      }
      this.maps.set(file, map);
    }
    const map = this.maps.get(file);
    if (!map) return file;
    const pos = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
    return pos.source ?? file;
  }
}

function stepOf(source: string | null): string | null {
  if (source === null) return null;
  const own = source.startsWith(`${ROOT}/`) ? source.slice(ROOT.length + 1) : source.replace(/^(\.\.\/)+/, '');
  if (!own.includes('node_modules/')) for (const [name, re] of RUNWAY_STEPS) if (re.test(own)) return name;
  for (const [name, re] of PACKAGE_STEPS) if (re.test(source)) return name;
  return 'other JavaScript';
}

/** Self time per step, in microseconds; native frames are charged to their nearest caller with a source. */
function attribute(profile: Profile, mapper: SourceMapper): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stepById = new Map<number, string>();
  const resolve = (id: number): string => {
    const cached = stepById.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const special = SPECIAL[node.callFrame.functionName];
    let step = special ?? stepOf(mapper.source(node.callFrame));
    if (!step) {
      const up = parent.get(id);
      step = node.callFrame.functionName === 'stringify' ? 'serialisation (JSON.stringify)' : up === undefined ? 'V8 and Node native (program)' : resolve(up);
    }
    stepById.set(id, step);
    return step;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const step = resolve(id);
    totals.set(step, (totals.get(step) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

async function main() {
  log(`API profile: ${RUNNERS} runners, ${JOBS} jobs, ${CONNECTIONS} connections, ${DURATION}s per scenario`);
  const url = await ensureDatabase('runway_bench_runners_large');
  const port = await freePort();
  const inspectPort = await freePort();
  const env = runwayEnv(url, port);
  const token = rootToken(env);
  const data = await seedBench(url, { runners: RUNNERS, jobs: JOBS }, log);
  const runway = await startRunway(env, undefined, [`--inspect=127.0.0.1:${inspectPort}`]);
  const inspector = await Inspector.connect(inspectPort);
  const mapper = new SourceMapper();
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  try {
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
    const list = scenarios(data, ONLY);
    for (const s of list) await load(port, s, token, { duration: 2, connections: CONNECTIONS });
    for (const s of list) {
      await load(port, s, token, { duration: 5, connections: CONNECTIONS }); // warm-up: JIT, pools, plan cache
      await inspector.send('Profiler.start');
      let requests = 0;
      const cpuBefore = cpuTime(runway.pid!);
      const f = await load(port, s, token, { duration: DURATION, connections: CONNECTIONS, total: (n) => (requests = n) });
      const cpuPerRequest = (cpuTime(runway.pid!) - cpuBefore) / requests;
      const { profile } = await inspector.send<{ profile: Profile }>('Profiler.stop');
      if (PROFILE_DIR) writeFileSync(path.join(PROFILE_DIR, `${s.name.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`), JSON.stringify(profile));
      const totals = attribute(profile, mapper);
      const busy = [...totals].filter(([k]) => k !== 'idle').reduce((a, [, v]) => a + v, 0);
      console.log(
        `\n### ${s.name}\n\n${requests} requests, ${f.rps.toFixed(0)} req/s under the profiler, ${cpuPerRequest.toFixed(2)} ms CPU per request (load average ${loadavg()[0].toFixed(1)})\n`,
      );
      console.log('| step | CPU ms per request | share of samples |');
      console.log('|---|---:|---:|');
      for (const [step, us] of [...totals].filter(([k]) => k !== 'idle').sort((a, b) => b[1] - a[1])) {
        console.log(`| ${step} | ${((cpuPerRequest * us) / busy).toFixed(3)} | ${((100 * us) / busy).toFixed(1)} % |`);
      }
    }
  } finally {
    inspector.close();
    await stop(runway);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
