// The packaging around the artifact: the Kubernetes base as `kubectl kustomize` renders it, the systemd
// unit as `systemd-analyze verify` reads it, and the Dockerfile and compose file as written. The image
// cannot be built here (no container daemon); scripts/smoke-artifact.mjs runs what the image copies.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import pkg from '../package.json';
import { readEnv } from '../lib/config/env';
import { isAllowed, parseAllowlist } from '../lib/config/monitoring-allowlist';
import { resolveClientIp } from '../lib/rate-limits/client-ip';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const which = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();

// CI installs both tools (.ci/run): there, a missing one fails the run instead of skipping.
function tool(cmd: string): string | undefined {
  const found = which(cmd);
  if (!found && process.env.CI) throw new Error(`${cmd} is not installed (CI needs it: .ci/run)`);
  return found || undefined;
}
const kubectl = tool('kubectl');
const systemdAnalyze = tool('systemd-analyze');

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are checked field by field */
type Obj = Record<string, any>;

function renderBase(): Obj[] {
  const r = spawnSync(kubectl!, ['kustomize', path.join(ROOT, 'deploy', 'kubernetes', 'base')], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
}

describe.skipIf(!kubectl)('the Kubernetes base, rendered by kubectl kustomize', () => {
  const objects = kubectl ? renderBase() : [];
  const one = (kind: string) => {
    const found = objects.filter((o) => o.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found[0];
  };
  const deployment = () => one('Deployment');
  const container = () => deployment().spec.template.spec.containers[0];
  const job = () => one('Job');
  const config = () => one('ConfigMap').data as Record<string, string>;

  it('has the web service, its Service, Ingress, ConfigMap and PodDisruptionBudget, and the migration Job', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Ingress', 'Job', 'PodDisruptionBudget', 'Service']);
    expect(one('PodDisruptionBudget').apiVersion).toBe('policy/v1');
  });

  it("runs the image tagged with Runway's version, in the Deployment and the Job alike", () => {
    expect(container().image).toBe(`runway:${pkg.version}`);
    expect(job().spec.template.spec.containers[0].image).toBe(container().image);
    expect(container().args).toEqual(['start']);
  });

  it('migrates in the Job with `runway migrate`, from the same settings as the Deployment', () => {
    const migrate = job().spec.template.spec.containers[0];
    expect(migrate.command).toEqual(['/app/bin/runway', 'migrate']);
    expect(migrate.envFrom).toEqual(container().envFrom);
    expect(job().spec.template.spec.restartPolicy).toBe('OnFailure');
  });

  it('names the migration Job per release, so applying a new version needs no manual delete', () => {
    expect(job().metadata.name).toBe(`runway-migrate-${pkg.version}`);
    expect(job().spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
  });

  it("probes as GitLab's chart does: liveness on /-/liveness, readiness on /-/readiness, a startup probe first", () => {
    const c = container();
    expect(c.livenessProbe.httpGet).toEqual({ path: '/-/liveness', port: 'http' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/-/readiness', port: 'http' });
    expect(c.startupProbe.httpGet.port).toBe('http');
    // A first start waits for the migration lock: the startup probe allows minutes, liveness is patient.
    expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(180);
    expect(c.livenessProbe.timeoutSeconds).toBeGreaterThan(c.readinessProbe.timeoutSeconds);
    // Readiness reads the database; the HAProxy runs found 2 s too short under load.
    expect(c.readinessProbe.timeoutSeconds).toBeGreaterThanOrEqual(5);
    expect(c.ports).toEqual([{ name: 'http', containerPort: Number(config().PORT) }]);
  });

  it('requests CPU and memory, and caps memory', () => {
    for (const c of [container(), job().spec.template.spec.containers[0]]) {
      expect(c.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources.limits.memory).toEqual(expect.any(String));
    }
  });

  it('runs as a non-root user on a read-only root file system, writing only to emptyDir volumes', () => {
    for (const spec of [deployment().spec.template.spec, job().spec.template.spec]) {
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(spec.securityContext.runAsUser).not.toBe(0);
      const c = spec.containers[0];
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      const volumes = new Map(spec.volumes.map((v: Obj) => [v.name, v]));
      for (const mount of c.volumeMounts) expect(volumes.get(mount.name), mount.name).toMatchObject({ emptyDir: {} });
    }
    const mounts = container().volumeMounts.map((m: Obj) => m.mountPath);
    expect(mounts).toEqual(expect.arrayContaining([config().RUNWAY_DATA_DIR, '/tmp']));
  });

  it('gives a stopping pod longer than the 50 s runner long poll and the drain', () => {
    expect(deployment().spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(80);
  });

  it('selects the Deployment’s pods in the PodDisruptionBudget and the Service', () => {
    const labels = deployment().spec.template.metadata.labels;
    expect(deployment().spec.selector.matchLabels).toEqual(labels);
    const pdb = one('PodDisruptionBudget');
    expect(pdb.spec.selector.matchLabels).toEqual(labels);
    expect(pdb.spec.minAvailable).toBeLessThan(deployment().spec.replicas);
    const service = one('Service');
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
    // The Job's pods are not the web service's: a PDB or Service never counts them.
    expect(Object.entries(labels).every(([k, v]) => job().spec.template.metadata.labels[k] === v)).toBe(false);
  });

  it('configures Runway with settings it accepts, from the ConfigMap and the Secret `runway`', () => {
    expect(container().envFrom).toEqual([{ configMapRef: { name: one('ConfigMap').metadata.name } }, { secretRef: { name: 'runway' } }]);
    expect(() => readEnv(config())).not.toThrow();
    expect(config().HOST).toBe('0.0.0.0');
  });

  it("admits the kubelet's probes and in-cluster scrapes on the monitoring allowlist, not the internet", () => {
    const list = parseAllowlist(config().RUNWAY_MONITORING_ALLOWLIST);
    for (const kubelet of ['10.244.0.1', '172.17.0.1', '192.168.49.2', '127.0.0.1', 'fd00::1']) expect(isAllowed(list, kubelet), kubelet).toBe(true);
    for (const outside of ['8.8.8.8', '203.0.113.7', '2001:db8::1']) expect(isAllowed(list, outside), outside).toBe(false);
  });

  it('exposes the Service through an Ingress with TLS, timeouts above the long poll and unbuffered event streams', () => {
    const ingress = one('Ingress');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend).toEqual({ name: one('Service').metadata.name, port: { name: 'http' } });
    expect(ingress.spec.tls[0].hosts).toEqual([ingress.spec.rules[0].host]);
    expect(ingress.spec.tls[0].secretName).toEqual(expect.any(String));
    expect(new URL(config().RUNWAY_EXTERNAL_URL).host).toBe(ingress.spec.rules[0].host);
    const a = ingress.metadata.annotations;
    const env = readEnv(config());
    for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
      expect(Number(a[`nginx.ingress.kubernetes.io/${key}`]), key).toBeGreaterThan(env.RUNWAY_LONG_POLLING_SECONDS);
      expect(Number(a[`nginx.ingress.kubernetes.io/${key}`]), key).toBeGreaterThan(env.RUNWAY_REQUEST_TIMEOUT_SECONDS);
    }
    expect(a['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
  });

  it("trusts the Ingress controller's pods as proxies, so each client keeps its own address", () => {
    const proxies = readEnv(config()).RUNWAY_TRUSTED_PROXIES;
    // A controller pod in the usual pod CIDRs forwards a client from the internet.
    for (const controller of ['10.244.1.7', '172.17.0.5', '192.168.49.3', 'fd00::7']) {
      expect(resolveClientIp(controller, '203.0.113.7', proxies), controller).toBe('203.0.113.7');
    }
    // A client reaching Runway directly cannot name another address.
    expect(resolveClientIp('203.0.113.9', '198.51.100.1', proxies)).toBe('203.0.113.9');
  });
});

describe('the systemd unit', () => {
  const unit = read('deploy/systemd/runway.service');
  const settings = new Map(
    unit
      .split('\n')
      .filter((l) => /^[A-Za-z]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

  it('has the hardening options, with W^X memory left to V8', () => {
    expect(Object.fromEntries(settings)).toMatchObject({
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      NoNewPrivileges: 'yes',
      CapabilityBoundingSet: '',
      RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
      SystemCallFilter: '@system-service',
      MemoryDenyWriteExecute: 'no',
      KillSignal: 'SIGTERM',
      EnvironmentFile: '/etc/runway/runway.env',
      ExecStart: '/opt/runway/bin/runway start',
    });
    expect(Number(settings.get('TimeoutStopSec'))).toBeGreaterThanOrEqual(80);
  });

  it('names documentation the artifact carries', async () => {
    const { DOCUMENTS } = await import('./package.mjs');
    const docs = (settings.get('Documentation') ?? '').split(' ');
    expect(docs.length).toBeGreaterThan(0);
    const installed = /^\/opt\/runway\/bin\/runway /.exec(settings.get('ExecStart') ?? '') ? '/opt/runway/' : '';
    for (const url of docs) {
      expect(url.startsWith(`file://${installed}`), url).toBe(true);
      const rel = url.slice(`file://${installed}`.length);
      expect(
        DOCUMENTS.some((d: string) => rel === d || rel.startsWith(`${d}/`)),
        rel,
      ).toBe(true);
      expect(() => read(rel), rel).not.toThrow();
    }
  });

  it('may write only to the data folder it gives Runway', () => {
    const dataDir = /RUNWAY_DATA_DIR=(\S+)/.exec(settings.get('Environment') ?? '')?.[1];
    expect(dataDir).toBe('/var/lib/runway');
    expect(settings.get('ReadWritePaths')).toBe(dataDir);
    expect(`/var/lib/${settings.get('StateDirectory')}`).toBe(dataDir);
  });

  it.skipIf(!systemdAnalyze)('passes systemd-analyze verify without a warning', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-unit-'));
    try {
      // The artifact is not installed in /opt here: any executable stands in for it.
      writeFileSync(path.join(dir, 'runway.service'), unit.replace('/opt/runway/bin/runway start', `${process.execPath} --version`));
      const r = spawnSync(systemdAnalyze!, ['verify', path.join(dir, 'runway.service')], { encoding: 'utf8' });
      expect(r.stderr.trim()).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Dockerfile', () => {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const stages = lines.reduce<string[][]>(
    (all, l) => (l.startsWith('FROM ') ? [...all, [l]] : all.length ? [...all.slice(0, -1), [...all.at(-1)!, l]] : all),
    [],
  );

  it('builds with the package script in one stage and only copies its output into a slim final stage', () => {
    expect(stages).toHaveLength(2);
    const [build, final] = stages;
    expect(build[0]).toMatch(/ AS build$/);
    expect(build).toEqual(expect.arrayContaining(['RUN npm ci --no-audit --no-fund', expect.stringMatching(/^RUN .*npm run package$/)]));
    expect(final.filter((l) => /^(COPY|ADD) /.test(l))).toEqual(['COPY --from=build /src/dist /app']);
    expect(lines.find((l) => l.startsWith('ARG NODE_IMAGE='))).toMatch(/^ARG NODE_IMAGE=node:\d+-bookworm-slim$/);
  });

  it('installs a pinned npm before npm ci (older ones ignore allowScripts and run every install script)', () => {
    const build = stages[0];
    const pin = build.find((l) => l.startsWith('ARG NPM_VERSION='));
    expect(pin).toMatch(/^ARG NPM_VERSION=\d+\.\d+\.\d+$/);
    const install = build.findIndex((l) => l === 'RUN npm install -g npm@${NPM_VERSION} --no-audit --no-fund');
    expect(install).toBeGreaterThan(0);
    expect(install).toBeLessThan(build.indexOf('RUN npm ci --no-audit --no-fund'));
    expect(Number(pin!.split('=')[1].split('.')[0])).toBeGreaterThanOrEqual(11);
  });

  it('runs as a non-root user, with git, checking readiness', () => {
    const final = stages[1];
    expect(final.find((l) => l.startsWith('USER '))).toBe('USER node');
    expect(final.find((l) => l.includes('apt-get install'))).toContain(' git ');
    expect(final.find((l) => l.startsWith('HEALTHCHECK '))).toContain('/-/readiness');
    expect(final.find((l) => l.startsWith('ENTRYPOINT '))).toBe('ENTRYPOINT ["/usr/bin/tini", "--", "/app/bin/runway"]');
    expect(final.find((l) => l.startsWith('ENV '))).toContain('RUNWAY_DATA_DIR=/var/lib/runway');
  });

  it('gets a build context without dependencies, builds, data or secrets', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.git', 'node_modules', '.next', 'dist', '.data', 'runway.env', '.env']));
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as Obj;
  const example = new Map(
    read('.env.example')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

  it('runs Runway and PostgreSQL with health checks, volumes and a grace period above the long poll', () => {
    const { runway, postgres } = compose.services;
    expect(runway.healthcheck.test.join(' ')).toContain('/-/readiness');
    // The health check asks the port Runway listens on, not a literal one.
    expect(runway.healthcheck.test.join(' ')).toContain('${process.env.PORT}');
    expect(runway.healthcheck.test.join(' ')).not.toMatch(/:\d+\//);
    expect(runway.environment.PORT).toBe(runway.ports[0].split(':').at(-1));
    expect(postgres.healthcheck.test).toContain('pg_isready');
    expect(runway.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(runway.volumes).toEqual([`runway-data:${runway.environment.RUNWAY_DATA_DIR}`]);
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(Object.keys(compose.volumes)).toEqual(['runway-data', 'postgres-data']);
    expect(parseInt(runway.stop_grace_period, 10)).toBeGreaterThanOrEqual(80);
    expect(runway.read_only).toBe(true);
  });

  it('gives each service its own env file: runway.env for Runway, postgres.env (the database password only) for PostgreSQL', () => {
    expect(compose.services.runway.env_file).toBe('runway.env');
    expect(compose.services.postgres.env_file).toBe('postgres.env');
    for (const file of ['runway.env', 'postgres.env']) {
      expect(read('.gitignore').split('\n'), file).toContain(file); // never committed
      expect(read('.dockerignore').split('\n'), file).toContain(file); // never in an image
    }
    const postgresExample = read('postgres.env.example')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l));
    expect(postgresExample).toEqual([expect.stringMatching(/^POSTGRES_PASSWORD=/)]);
    expect(example.has('POSTGRES_PASSWORD')).toBe(false); // Runway's file holds no other service's settings
    const url = new URL(example.get('DATABASE_URL')!);
    expect(url.hostname).toBe('postgres');
    expect(decodeURIComponent(url.password)).toBe(postgresExample[0].slice('POSTGRES_PASSWORD='.length));
    expect(`${url.username}/${url.pathname.slice(1)}`).toBe(
      `${compose.services.postgres.environment.POSTGRES_USER}/${compose.services.postgres.environment.POSTGRES_DB}`,
    );
    expect(example.get('RUNWAY_SECRET')!.length).toBeGreaterThanOrEqual(32);
    expect(() => readEnv(Object.fromEntries(example))).not.toThrow();
  });
});
