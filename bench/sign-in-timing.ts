// Sign-in timing benchmark: `npm run bench:sign-in` (needs a production build: RUNWAY_DIST_DIR, default
// .next, and DATABASE_URL). Times a wrong password for an existing username and for a username that
// names no user, alternating, each attempt from its own client address (so no lock is reached), and prints
// the median and 90th percentile of each and their ratio. Issue 20: before the fix an unknown username was
// answered in ~9 ms and an existing one in ~22 ms. Env: BENCH_ROUNDS (default 200).
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const log = (s: string) => process.stderr.write(`${s}\n`);

async function wrongPassword(base: string, login: string, ip: string): Promise<number> {
  const headers = { 'X-Forwarded-For': ip };
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const body = new URLSearchParams({ csrfToken, username: login, password: 'not-the-password', json: 'true' }).toString();
  const t = performance.now();
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { ...headers, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - t;
  if (!text.includes('error=CredentialsSignin')) throw new Error(`unexpected answer for ${login}: ${res.status} ${text}`);
  return ms;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const port = await freePort();
// No throttle, and no account-wide lock for the many failures on one user.
const env = {
  ...runwayEnv(await ensureDatabase('runway_bench_sign_in'), port),
  RUNWAY_RATE_LIMIT_SIGN_IN: 'off',
  RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
};
const token = rootToken(env);
const server = await startRunway(env);
const base = `http://127.0.0.1:${port}`;
try {
  const username = `bench_${Date.now().toString(36)}`;
  const made = await fetch(`${base}/api/v4/users`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, name: username, email: `${username}@example.com`, password: 'bench-password-1', skip_confirmation: true }),
  });
  if (made.status !== 201) throw new Error(`POST /users: ${made.status}`);
  const existing: number[] = [];
  const unknown: number[] = [];
  // Warm-up, not counted: the first requests compile routes and open connections.
  for (let i = 0; i < 5; i++) await wrongPassword(base, username, `198.18.0.${i + 1}`);
  for (let i = 0; i < ROUNDS; i++) {
    const ip = `198.19.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    existing.push(await wrongPassword(base, username, ip));
    unknown.push(await wrongPassword(base, `nobody_${i}_${Date.now().toString(36)}`, ip));
  }
  const row = (name: string, xs: number[]) => `${name.padEnd(18)} median ${quantile(xs, 0.5).toFixed(1)} ms   p90 ${quantile(xs, 0.9).toFixed(1)} ms`;
  log(`wrong password, ${ROUNDS} rounds each, alternating:`);
  log(row('existing username', existing));
  log(row('unknown username', unknown));
  log(`median ratio unknown / existing: ${(quantile(unknown, 0.5) / quantile(existing, 0.5)).toFixed(2)}`);
} finally {
  await stop(server);
}
