// The cluster's Runway instances: each a `runway start` of the production artifact (or of the checkout, for
// the test suite's small cluster) on a port of its own, stopped by its process id with SIGTERM (readiness
// fails, the load balancer takes it out, held polls are answered, streams end) and started again on the
// same port: a rolling restart.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { sleep } from '../sim-runner';

export interface RunwayCommand {
  /** The executable and its arguments before `start` (e.g. dist/bin/runway, or node bin/runway.mjs). */
  command: string;
  args: string[];
  cwd: string;
}

export interface Instance {
  name: string;
  port: number;
  process: ChildProcess;
  /** Lines the instance wrote on stderr (warnings and errors, JSON). */
  stderr: string[];
}

/** 200 from `/-/readiness` on the instance itself (loopback is on its monitoring allowlist). */
export function ready(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/-/readiness', timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Starts one instance with its open-file limit raised to the hard limit (a socket per held poll). */
export async function startInstance(name: string, port: number, run: RunwayCommand, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<Instance> {
  const child = spawn('/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" && exec "$0" "$@"', run.command, ...run.args, 'start'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    cwd: run.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    for (const line of d.split('\n')) if (line && stderr.length < 200) stderr.push(line);
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr.join('\n')}`);
    if (await ready(port)) return { name, port, process: child, stderr };
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`${name} was not ready within ${timeoutMs} ms: ${stderr.join('\n')}`);
}

/** SIGTERM by process id, then waits for the exit (SIGKILL after `timeoutMs`); the exit code. */
export async function stopInstance(instance: Instance, timeoutMs = 90_000): Promise<number | null> {
  const child = instance.process;
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
  if (code !== 'timeout') return code;
  child.kill('SIGKILL');
  await exited;
  return null;
}

export interface RestartFigures {
  name: string;
  /** From SIGTERM until the process exited (blackout, then the drain). */
  stopMs: number;
  /** From SIGTERM until the new process answered readiness: how long the instance was out. */
  outMs: number;
  exitCode: number | null;
}

/** Stops an instance and starts it again on its port; replaces `instance.process`. */
export async function restartInstance(instance: Instance, run: RunwayCommand, env: NodeJS.ProcessEnv): Promise<RestartFigures> {
  const t0 = Date.now();
  const exitCode = await stopInstance(instance);
  const stopMs = Date.now() - t0;
  const fresh = await startInstance(instance.name, instance.port, run, env);
  instance.process = fresh.process;
  instance.stderr = fresh.stderr;
  return { name: instance.name, stopMs, outMs: Date.now() - t0, exitCode };
}
