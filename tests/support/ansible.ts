// Runs an Ansible playbook (Debian `ansible`, community.general's GitLab modules over python-gitlab) against
// the running Runway, on localhost with the system Python, and answers what each task reported.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ANSIBLE_PLAYBOOK = '/usr/bin/ansible-playbook';

export interface TaskResult {
  name: string;
  changed: boolean;
  failed: boolean;
  msg?: string;
}

export interface PlayResult {
  tasks: TaskResult[];
  /** Tasks that reported a change. */
  changed: number;
  failed: number;
}

/** Runs `tasks` (Ansible task objects, serialised as JSON, which is YAML) in one play on localhost. */
export function runPlaybook(tasks: Record<string, unknown>[]): PlayResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'runway-ansible-'));
  try {
    const playbook = path.join(dir, 'play.yml');
    writeFileSync(playbook, JSON.stringify([{ hosts: 'localhost', connection: 'local', gather_facts: false, tasks }]));
    const run = spawnSync(ANSIBLE_PLAYBOOK, ['-i', 'localhost,', playbook], {
      env: {
        ...process.env,
        ANSIBLE_STDOUT_CALLBACK: 'json',
        ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3',
        ANSIBLE_LOCAL_TEMP: path.join(dir, 'tmp'),
        ANSIBLE_HOME: path.join(dir, 'home'),
        ANSIBLE_NOCOLOR: '1',
      },
      encoding: 'utf8',
      timeout: 240_000,
    });
    const start = run.stdout.indexOf('{');
    if (start < 0) throw new Error(`ansible-playbook printed no JSON (status ${run.status}): ${run.stdout}\n${run.stderr}`);
    const out = JSON.parse(run.stdout.slice(start));
    const results: TaskResult[] = out.plays[0].tasks.map((t: any) => {
      const host = t.hosts.localhost ?? {};
      return { name: t.task.name, changed: !!host.changed, failed: !!host.failed, ...(host.msg ? { msg: String(host.msg) } : {}) };
    });
    return { tasks: results, changed: results.filter((t) => t.changed).length, failed: results.filter((t) => t.failed).length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
