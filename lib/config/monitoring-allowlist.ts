// Who may read /-/metrics: GitLab's monitoring allowlist. Loopback by default; more networks in
// RUNWAY_MONITORING_ALLOWLIST (comma-separated addresses or CIDR ranges). Decided on the socket's
// address, never on a header a client can set.
import { BlockList, isIP } from 'node:net';

export const DEFAULT_MONITORING_ALLOWLIST = '127.0.0.0/8,::1/128';

/** Parses `a.b.c.d/n, ::1/128, 10.0.0.1`; throws with the offending entry. */
export function parseAllowlist(value: string): BlockList {
  const list = new BlockList();
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, prefixText] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`not an IP address or CIDR range: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) throw new Error(`bad prefix length: ${entry}`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** Whether a socket address is allowed; an IPv4 address seen as `::ffff:a.b.c.d` is checked as IPv4. */
export function isAllowed(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return list.check(v4, 'ipv4');
  const family = isIP(address);
  if (!family) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
