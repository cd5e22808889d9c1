// Runs a python-gitlab script with the system python3 (python3-gitlab from the distribution), without any
// PYTHONPATH of the caller's, collecting its output.
import { spawn } from 'node:child_process';

export function runPython(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/python3', ['-c', script, ...args], { env: { ...process.env, PYTHONPATH: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
