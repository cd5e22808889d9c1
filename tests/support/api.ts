// A tiny HTTP client for API tests: real requests to the running Runway.
import { inject } from 'vitest';
import { fetchFrom } from './loopback-fetch';
import { checkAgainstDocument } from './openapi-check';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** JSON body (sent as application/json). */
  json?: unknown;
  /** Form body (sent as application/x-www-form-urlencoded). */
  form?: Record<string, string | string[]>;
  query?: Record<string, string | number | boolean | string[]>;
  headers?: Record<string, string>;
  /** Connect from this loopback address (the client address Runway records), not 127.0.0.1. */
  from?: string;
}

export const baseUrl = () => inject('baseUrl');
export const rootToken = () => inject('rootToken');

export function url(path: string, query?: RequestOptions['query']): string {
  const u = `${baseUrl()}/api/v4${path}`;
  if (!query) return u;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) v.forEach((x) => qs.append(`${k}[]`, x));
    else qs.append(k, String(v));
  }
  return `${u}?${qs}`;
}

export async function api<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers['PRIVATE-TOKEN'] = opts.token;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) (Array.isArray(v) ? v : [v]).forEach((x) => f.append(Array.isArray(v) ? `${k}[]` : k, x));
    body = f.toString();
  }
  const res = opts.from
    ? await fetchFrom(opts.from, url(path, opts.query), { method, headers, body })
    : await fetch(url(path, opts.query), { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  await checkAgainstDocument(baseUrl(), method, path, res.status, parsed, res.headers.get('content-type'));
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A unique suffix so test files sharing one server never collide. */
export const uniq = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
