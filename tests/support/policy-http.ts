// A lean request for the policy-table walk: thousands of calls, so no OpenAPI check per answer (the other
// API tests check the answers' shapes; this walk only compares statuses and messages).
import { baseUrl } from './api';

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export async function fetchApi(method: string, path: string, opts: { token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers['PRIVATE-TOKEN'] = opts.token;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(`${baseUrl()}/api/v4${path}`, { method, headers, body, redirect: 'manual' });
  // An event stream never ends: its status is the answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: undefined, text: '' };
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}
