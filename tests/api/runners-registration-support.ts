// Helpers for the runner registration/agent tests: registration tokens (obtainable only by a reset),
// runner-token calls as gitlab-runner makes them, and direct database access for the settings that
// other APIs own (per-namespace runner settings) and for checking stored state.
import { existsSync } from 'node:fs';
import { inject } from 'vitest';
import pg from 'pg';
import { api, rootToken } from '../support/api';
import { lockDir, sleep, withDirLock } from '../support/dir-lock';

// Instance settings are global while test files run in parallel: a test that flips them holds this
// cross-process lock, and registration helpers wait while it is held.
const LOCK = 'instance-settings';

export async function waitForInstanceSettings(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (existsSync(lockDir(LOCK)) && Date.now() < deadline) await sleep(25);
}

/** Runs `fn` while other files' registrations wait; requests already in flight get a grace period. */
export function withInstanceSettingsLock<T>(fn: () => Promise<T>): Promise<T> {
  return withDirLock(LOCK, 20_000, async () => {
    await sleep(300);
    return fn();
  });
}

/** Runs one query on the test database with a short-lived connection (PGlite has few sockets). */
export async function dbQuery<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('inspectUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function resetProjectToken(token: string, projectId: number): Promise<string> {
  await waitForInstanceSettings();
  const res = await api('POST', `/projects/${projectId}/runners/reset_registration_token`, { token });
  if (res.status !== 201) throw new Error(`project token reset: ${res.status} ${res.text}`);
  return res.body.token;
}

export async function resetGroupToken(token: string, groupId: number): Promise<string> {
  await waitForInstanceSettings();
  const res = await api('POST', `/groups/${groupId}/runners/reset_registration_token`, { token });
  if (res.status !== 201) throw new Error(`group token reset: ${res.status} ${res.text}`);
  return res.body.token;
}

export async function resetInstanceToken(): Promise<string> {
  await waitForInstanceSettings();
  const res = await api('POST', '/runners/reset_registration_token', { token: rootToken() });
  if (res.status !== 201) throw new Error(`instance token reset: ${res.status} ${res.text}`);
  return res.body.token;
}

/** POST /runners with a registration token; returns the response. */
export async function register(registrationToken: string, extra: Record<string, unknown> = {}) {
  await waitForInstanceSettings();
  return api('POST', '/runners', { json: { token: registrationToken, ...extra } });
}

/** Registers and expects 201; returns {id, token, token_expires_at}. */
export async function registered(registrationToken: string, extra: Record<string, unknown> = {}) {
  const res = await register(registrationToken, extra);
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body as { id: number; token: string; token_expires_at: string | null };
}

/** A 12-character system id as gitlab-runner makes them. */
export const systemId = () => `s_${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}`;

export async function runnerRow(id: number) {
  const rows = await dbQuery('SELECT * FROM ci_runners WHERE id = $1', [id]);
  return rows[0];
}

export async function managerRows(runnerId: number) {
  return dbQuery('SELECT * FROM ci_runner_machines WHERE runner_id = $1 ORDER BY id', [runnerId]);
}
