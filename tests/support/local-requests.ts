// The admin setting allow_local_requests_from_web_hooks_and_services is global while test files run in
// parallel: a test that needs it on or off holds a cross-process lock meanwhile, and the setting is back
// off when the lock is released.
import { expect } from 'vitest';
import { api, rootToken } from './api';
import { withDirLock } from './dir-lock';

export async function setLocalRequests(allowed: boolean): Promise<void> {
  const res = await api('PUT', '/application/settings', { token: rootToken(), json: { allow_local_requests_from_web_hooks_and_services: allowed } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.allow_local_requests_from_web_hooks_and_services).toBe(allowed);
}

/** Runs `fn` with imports from this host and the local network allowed or not, and no other file changing that. */
export function withLocalRequests<T>(allowed: boolean, fn: () => Promise<T>): Promise<T> {
  return withDirLock('local-requests', 120_000, async () => {
    try {
      await setLocalRequests(allowed);
      return await fn();
    } finally {
      await setLocalRequests(false);
    }
  });
}
