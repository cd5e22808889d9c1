// The settings in which the test servers (tests/support/server.ts: the API tests' shared server, the
// browser tests' server and every file's own server) differ from what ships, each with why. Nothing else
// is overridden: the tests run the production defaults. `npm test` prints this list in its summary, as it
// prints the skipped tests. A test file that needs another value starts its own server (own-server.ts)
// with a comment saying why; those are named in that file, not here.

/** @type {ReadonlyArray<{ name: string, value: string, reason: string }>} */
export const TEST_OVERRIDES = [
  {
    name: 'RUNWAY_LOG_LEVEL',
    value: process.env.RUNWAY_TEST_LOGS ? 'info' : 'warn',
    reason: 'info logs every request; the test output keeps warnings and errors (RUNWAY_TEST_LOGS=1 restores info)',
  },
];

/** Only on the suites' shared servers (tests/support/global-setup.ts, e2e/support/global-setup.ts). */
/** @type {ReadonlyArray<{ name: string, value: string, reason: string }>} */
export const SHARED_SERVER_OVERRIDES = [
  {
    name: 'RUNWAY_ALLOW_LOCAL_IMPORT',
    value: 'true',
    reason: 'tests seed projects with repositories built by git on this machine (tests/fixtures/git-repos.ts), imported from disk',
  },
];

/** Only on the browser tests' server (e2e/support/global-setup.ts). */
/** @type {ReadonlyArray<{ name: string, value: string, reason: string }>} */
export const E2E_SERVER_OVERRIDES = [
  {
    name: 'RUNWAY_RATE_LIMIT_SIGN_IN',
    value: '1000/60',
    reason:
      'every browser connects from 127.0.0.1 (a browser cannot pick its source address) and the specs sign in about 100 times ' +
      'through the form on 2 workers, some failing 10 in a row to lock an account: 10/60 per address would throttle specs ' +
      'against each other. The API tests sign in at the default, each client from a loopback address of its own ' +
      '(tests/support/loopback-fetch.ts); tests/api/rate-limits.test.ts and client-ip.test.ts check the throttle itself',
  },
];

/** The overrides as environment variables (`server`: with those of the API or the browser tests' shared server). */
export function overrideEnv(server = /** @type {'api' | 'e2e' | undefined} */ (undefined)) {
  const extra = server === 'api' ? SHARED_SERVER_OVERRIDES : server === 'e2e' ? [...SHARED_SERVER_OVERRIDES, ...E2E_SERVER_OVERRIDES] : [];
  return Object.fromEntries([...TEST_OVERRIDES, ...extra].map((o) => [o.name, o.value]));
}

/** The lines `npm test` prints. */
export function formatOverrides() {
  return [
    'test servers differ from the shipped defaults in:',
    ...TEST_OVERRIDES.map((o) => `  ${o.name}=${o.value}: ${o.reason}`),
    ...SHARED_SERVER_OVERRIDES.map((o) => `  ${o.name}=${o.value} (the shared servers only): ${o.reason}`),
    ...E2E_SERVER_OVERRIDES.map((o) => `  ${o.name}=${o.value} (the browser tests' server only): ${o.reason}`),
    '  (a file that starts its own server with other settings says why in the file)',
  ];
}
