// The process's Prometheus registry. The custom server and Next.js's bundles may each evaluate this module,
// so the registry and its metrics live on globalThis: every copy records into the same series.
import client from 'prom-client';
import { buildInfo } from '../config/build-info';

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const m = {
    registry,
    httpDuration: new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
      registers: [registry],
    }),
    httpInFlight: new client.Gauge({
      name: 'http_requests_in_flight',
      help: 'HTTP requests being served',
      registers: [registry],
    }),
    statementDuration: new client.Histogram({
      name: 'runway_db_statement_duration_seconds',
      help: 'Database statement duration by statement kind (SELECT, INSERT, UPDATE, DELETE, other)',
      labelNames: ['kind'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    }),
    poolConnections: new client.Gauge({
      name: 'runway_db_pool_connections',
      help: 'Database pool connections by state (in_use, idle, waiting = clients waiting for one)',
      labelNames: ['state'] as const,
      registers: [registry],
    }),
    poolMax: new client.Gauge({
      name: 'runway_db_pool_max_connections',
      help: 'The most database connections this process opens (RUNWAY_DB_POOL_MAX): in_use reaching it means exhaustion',
      registers: [registry],
    }),
    databaseUp: new client.Gauge({
      name: 'runway_database_up',
      help: "1 when this scrape's database reads succeeded, 0 when the database was unreachable (readiness with ?all fails then)",
      registers: [registry],
    }),
    backgroundQueue: new client.Gauge({
      name: 'runway_background_jobs',
      help: 'Background jobs in the queue by status (queued, running); database-wide, the same on every instance',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    backgroundOutcomes: new client.Counter({
      name: 'runway_background_job_outcomes_total',
      help: 'Background jobs run by this process, by kind and outcome',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    runners: new client.Gauge({
      name: 'runway_runners',
      help: 'Runners by status and type (refreshed at most once a minute); database-wide, the same on every instance',
      labelNames: ['status', 'runner_type'] as const,
      registers: [registry],
    }),
    // Held polls and event streams stay open on purpose: they have their own series, and are left out of
    // http_request_duration_seconds and http_requests_in_flight.
    pollHold: new client.Histogram({
      name: 'runway_runner_job_request_hold_seconds',
      help: 'How long POST /jobs/request polls were held (long polling), by how the hold ended',
      labelNames: ['outcome'] as const,
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 40, 50, 60, 120],
      registers: [registry],
    }),
    pollsHeld: new client.Gauge({
      name: 'runway_runner_polls_held',
      help: 'POST /jobs/request polls being held now (long polling)',
      registers: [registry],
    }),
    eventStreams: new client.Gauge({
      name: 'runway_event_streams_open',
      help: 'Server-Sent Event streams open now',
      registers: [registry],
    }),
    // GitLab's names (Gitlab::Metrics::Subscribers::RackAttack), so its dashboards and alerts apply.
    throttleEvents: new client.Counter({
      name: 'gitlab_rack_attack_events_total',
      help: 'Requests refused by a rate limit, by event type (throttle) and throttle name',
      labelNames: ['event_type', 'event_name'] as const,
      registers: [registry],
    }),
    throttleLimit: new client.Gauge({
      name: 'gitlab_rack_attack_throttle_limit',
      help: 'Requests a client may make in a period before the throttle refuses them',
      labelNames: ['event_name'] as const,
      registers: [registry],
    }),
    throttlePeriod: new client.Gauge({
      name: 'gitlab_rack_attack_throttle_period_seconds',
      help: 'The period over which a throttle counts requests',
      labelNames: ['event_name'] as const,
      registers: [registry],
    }),
    // Fleet alerts (lib/fleet-alerts): the rules' state and value are read from the database at scrape, so
    // every instance shows the same; the check time and the webhook attempts are this process's own.
    fleetAlertFiring: new client.Gauge({
      name: 'runway_fleet_alert_firing',
      help: 'Fleet alert rules: 1 while the rule fires, 0 otherwise (enabled rules); database-wide, the same on every instance',
      labelNames: ['rule_id', 'rule_name', 'kind'] as const,
      registers: [registry],
    }),
    fleetAlertValue: new client.Gauge({
      name: 'runway_fleet_alert_value',
      help: "Fleet alert rules: the value measured at the rule's last check (percent, runners or seconds); database-wide",
      labelNames: ['rule_id', 'rule_name', 'kind'] as const,
      registers: [registry],
    }),
    fleetAlertCheckSeconds: new client.Histogram({
      name: 'runway_fleet_alert_check_seconds',
      help: 'Time of a fleet alert check cycle (every enabled rule) run by this process',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    fleetAlertDeliveries: new client.Counter({
      name: 'runway_fleet_alert_webhook_deliveries_total',
      help: 'Fleet alert webhook attempts made by this process, by outcome (delivered, retrying, failed)',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    buildInfo: new client.Gauge({
      name: 'runway_build_info',
      help: 'Always 1; the labels name the running Runway version and source revision',
      labelNames: ['version', 'revision'] as const,
      registers: [registry],
    }),
  };
  const build = buildInfo();
  m.buildInfo.set({ version: build.version, revision: build.revision }, 1);
  return m;
}

export type Metrics = ReturnType<typeof create>;
const holder = globalThis as typeof globalThis & { __runwayMetrics?: Metrics };

export function metrics(): Metrics {
  return (holder.__runwayMetrics ??= create());
}

/** SELECT, INSERT, UPDATE, DELETE or other: a bounded label from a statement's first keyword. */
export function statementKind(text: string): string {
  const word = /^\s*(?:WITH\b[\s\S]*?\)\s*)?([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? '';
  return ['SELECT', 'INSERT', 'UPDATE', 'DELETE'].includes(word) ? word : 'other';
}

/** Records one statement's duration; never throws into the caller's query path. */
export function observeStatement(text: string, seconds: number): void {
  try {
    metrics().statementDuration.observe({ kind: statementKind(text) }, seconds);
  } catch {
    // Metrics must never fail a query.
  }
}
