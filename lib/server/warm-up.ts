// Next.js loads a route's code on the route's first request: measured here, the first API call took 0.2 s
// and the first sign-in page 0.54 s, against 0.013 s and 0.18 s after. An instance that joins a load
// balancer's rotation cold makes its first users and runners pay that. So before readiness passes, the
// instance asks itself, over its own listening socket, for the routes hit first; answers (401, a redirect)
// do not matter, loading the code does. A failed warm-up request is logged and does not stop the start.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The request id the warm-up's requests carry: random per process, so the server can leave them out of the
 * request log and the request histogram (they are not traffic) and no client can hide its own requests so.
 */
export const WARM_UP_REQUEST_ID = `warm-up-${randomUUID().replace(/-/g, '')}`;

/** The routes warmed: the API's shared code and the runner list's, the sign-in page, the admin runner list. */
export const WARM_UP_PATHS = ['/api/v4/version', '/api/v4/runners', '/api/v4/user', '/sign-in', '/admin/runners'];

export interface WarmedPath {
  path: string;
  /** The answer's status; 0 when the request failed. */
  status: number;
  ms: number;
}

/** The host to reach `server` on: its own address, loopback when it listens on every interface. */
function ownHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '::1';
  return address.address;
}

function get(host: string, port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path, headers: { 'X-Request-Id': WARM_UP_REQUEST_ID }, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Requests each of `paths` from `server` once, one after another. */
export async function warmUp(server: http.Server, paths = WARM_UP_PATHS): Promise<WarmedPath[]> {
  const address = server.address();
  if (!address || typeof address === 'string') return [];
  const host = ownHost(address);
  const warmed: WarmedPath[] = [];
  for (const path of paths) {
    const started = performance.now();
    const status = await get(host, address.port, path);
    warmed.push({ path, status, ms: Math.round(performance.now() - started) });
  }
  return warmed;
}
