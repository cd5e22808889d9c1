// The layers of lib/, bottom to top: a folder imports only from its own layer and those below
// (docs/architecture.md). dependency-cruiser's rules (.dependency-cruiser.mjs) and the figures of
// scripts/layers/graph.mjs both read this list, so the picture and the check never drift apart.
export const LAYERS = [
  {
    name: 'foundation',
    what: 'configuration, logging, request context, metrics registry, database access, the job queue, the notification hub',
    folders: ['config', 'log', 'observability', 'metrics', 'db', 'background', 'notifications'],
  },
  {
    name: 'kernel',
    what: 'the HTTP kernel: credentials and the session cookie, rate limits, then request parsing, parameters, errors, pagination, authentication and the endpoint wrapper',
    folders: ['auth', 'rate-limits', 'api'],
  },
  {
    name: 'domains',
    what: 'one folder per domain',
    folders: [
      'users',
      'sessions',
      'tokens',
      'namespaces',
      'groups',
      'projects',
      'members',
      'runners',
      'runner-agent',
      'jobs',
      'repositories',
      'merge-requests',
      'audit',
      'fleet',
      'runner-cleanup',
      'fleet-alerts',
      'settings',
      'meta',
      'oauth',
    ],
  },
  {
    name: 'composition',
    what: 'the server start, the monitoring endpoints, the background worker, seeding, the OpenAPI document',
    folders: ['server', 'health', 'worker', 'seed', 'openapi'],
  },
  { name: 'browser', what: "the dashboard's API client and URL helpers (components/ and app/ pages use them)", folders: ['client'] },
];

export const layerOf = (folder) => LAYERS.findIndex((l) => l.folders.includes(folder));
