// Debian's ansible for client tests: runs one community.general task against Runway (loopback) and reads
// the play's JSON summary, as an admin's playbook would run it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { uniq } from './api';

export const ANSIBLE_PLAYBOOK = '/usr/bin/ansible-playbook';
export const hasAnsible = existsSync(ANSIBLE_PLAYBOOK);

let work: string | undefined;
function workDir(): string {
  if (!work) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-ansible-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    work = dir;
  }
  return work;
}

export interface PlayResult {
  /** The play's changed and failed task counts (each play has one task). */
  changed: number;
  failed: number;
  /** The task's result (msg, and the module's return values). */
  result: any;
}

/** Runs one task of `module` with these arguments on localhost. */
export async function playTask(module: string, args: Record<string, unknown>): Promise<PlayResult> {
  const dir = workDir();
  const file = path.join(dir, `${uniq('play')}.json`);
  // A playbook is YAML, and JSON is YAML: no YAML writer needed.
  writeFileSync(file, JSON.stringify([{ hosts: 'localhost', gather_facts: false, tasks: [{ name: 'task', [module]: args }] }]));
  // Asynchronous, so the test's own keep-alive connections to Runway are not left stale meanwhile.
  const child = spawn(ANSIBLE_PLAYBOOK, ['-i', 'localhost,', '-c', 'local', file], {
    env: {
      ...process.env,
      ANSIBLE_STDOUT_CALLBACK: 'json',
      ANSIBLE_HOME: path.join(dir, 'home'),
      ANSIBLE_LOCAL_TEMP: path.join(dir, 'tmp'),
      ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3',
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_DEPRECATION_WARNINGS: 'false',
      // Loopback only: no proxy between the module and Runway.
      NO_PROXY: '*',
      no_proxy: '*',
    },
    timeout: 120_000,
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.resume();
  await new Promise((resolve) => child.on('close', resolve));
  const out = JSON.parse(stdout.slice(stdout.indexOf('{')));
  const stats = out.stats.localhost;
  return { changed: stats.changed, failed: stats.failures, result: out.plays[0].tasks[0].hosts.localhost };
}
