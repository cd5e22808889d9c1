// The client's address for per-IP limits, as Rack's Request#ip finds it: the socket peer, unless the peer is
// a trusted proxy (loopback or a private network), in which case the right-most X-Forwarded-For hop that is
// not a trusted proxy. A client connecting directly cannot choose its address by sending the header.
import { BlockList, isIP } from 'node:net';

/** Set by `runway start`'s http wrapper from the socket, replacing any value a client sent. */
export const PEER_ADDRESS_HEADER = 'x-runway-peer-address';

const trustedProxies = new BlockList();
for (const [net, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  trustedProxies.addSubnet(net, prefix, 'ipv4');
}
trustedProxies.addAddress('::1', 'ipv6');
trustedProxies.addSubnet('fc00::', 7, 'ipv6');

/** `::ffff:127.0.0.1` is 127.0.0.1; anything that is not an address stays as sent (it counts as untrusted). */
function normalize(value: string): string {
  const v = value.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  return mapped ? mapped[1] : v;
}

export function isTrustedProxy(address: string): boolean {
  const kind = isIP(address);
  return kind !== 0 && trustedProxies.check(address, kind === 4 ? 'ipv4' : 'ipv6');
}

export function clientIp(headers: Headers): string {
  const peer = normalize(headers.get(PEER_ADDRESS_HEADER) ?? '');
  if (peer && !isTrustedProxy(peer)) return peer;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normalize).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrustedProxy(hops[i])) return hops[i].slice(0, 64);
  return hops[0] ?? (peer || 'unknown');
}
