// A lock shared by the API test files that run in parallel: a directory under the temp folder, created
// atomically (mkdir fails while another holder has it), named per test server.
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseUrl } from './api';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const lockDir = (name: string) => path.join(os.tmpdir(), `runway-${name}-${new URL(baseUrl()).port}.lock`);

/** Waits for the lock (up to `timeoutMs`), runs `fn`, and releases it. */
export async function withDirLock<T>(name: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir(name));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} lock not released`);
      await sleep(25);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir(name), { recursive: true, force: true });
  }
}
