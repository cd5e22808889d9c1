// The client's address, decided once per request by `runway start`'s http wrapper and read by every consumer
// (rate limits, sessions, audit events, sign-in, runner managers). It is the socket's address, unless that
// is a proxy on RUNWAY_TRUSTED_PROXIES (GitLab's trusted_proxies; none by default): then X-Forwarded-For
// is walked from the right while each address is a trusted proxy, and the first untrusted one is the
// client. Only IP addresses count: a hop that is not one ends the walk at the last trusted address.
import type { IncomingMessage } from 'node:http';
import { isIP, type BlockList } from 'node:net';

/** Set by the http wrapper on every request, replacing any value a client sent under this name. */
export const CLIENT_IP_HEADER = 'x-runway-client-ip';

/** An address in one spelling (IPv4-mapped IPv6 as IPv4, IPv6 canonical), or null when it is none. */
export function normalizeIp(value: string): string | null {
  const v = value.trim();
  const family = isIP(v);
  if (family === 4) return v;
  if (family !== 6 || v.includes('%')) return null;
  const canonical = new URL(`http://[${v}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

const isTrusted = (proxies: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && proxies.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/** The client's address from the socket's and the X-Forwarded-For header, trusting only `proxies`. */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, proxies: BlockList): string {
  let client = normalizeIp(socketAddress ?? '') ?? (socketAddress || 'unknown');
  const hops = [forwardedFor ?? []].flat().join(',').split(',');
  for (let i = hops.length - 1; i >= 0 && isTrusted(proxies, client); i--) {
    const hop = normalizeIp(hops[i]);
    if (!hop) break;
    client = hop;
  }
  return client;
}

/**
 * Puts the decided address on the request for everything behind the wrapper. X-Forwarded-For carries it
 * too: Next.js keeps a client's X-Forwarded-For as sent, and nothing downstream may read that.
 */
export function assignClientIp(req: IncomingMessage, proxies: BlockList): void {
  const ip = resolveClientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'], proxies);
  req.headers[CLIENT_IP_HEADER] = ip;
  req.headers['x-forwarded-for'] = ip;
}

/** The request's client address as the http wrapper decided it ('unknown' outside `runway start`). */
export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) || 'unknown';
}

/** The same, read from the node request the wrapper set it on (the request log, before any web Request exists). */
export function incomingClientIp(req: IncomingMessage): string {
  const ip = req.headers[CLIENT_IP_HEADER];
  return (typeof ip === 'string' && ip) || 'unknown';
}
