// Which resolved addresses an import may not reach while the instance keeps the local network closed
// (GitLab's UrlBlocker, with its messages and its order: every address is checked for the first rule,
// then for the next). An IPv4 address carried in an IPv6 one is judged as the IPv4 address.
import { embeddedIpv4, formatIp, parseIp, type Ip } from './ip-address';

interface Rule {
  message: string;
  matches(ip: Ip, own: ReadonlySet<string>): boolean;
}

const inV4 = (ip: Ip, base: string, bits: number) => {
  if (ip.family !== 4) return false;
  const start = (parseIp(base) as { value: number }).value;
  const size = 2 ** (32 - bits);
  return ip.value >= start && ip.value < start + size;
};
const inV6 = (ip: Ip, firstWord: number, bits: number) => ip.family === 6 && ip.words[0] >> (16 - bits) === firstWord >> (16 - bits);
const isV6 = (ip: Ip, text: string) => ip.family === 6 && formatIp(ip) === text;

const RULES: Rule[] = [
  {
    // The unspecified addresses and this host's own addresses reach this host. 0.0.0.0/8 as a whole:
    // GitLab lists 0.0.0.0 only, but Linux sends other 0.x addresses nowhere useful either.
    message: 'Requests to localhost are not allowed',
    matches: (ip, own) => inV4(ip, '0.0.0.0', 8) || isV6(ip, '::') || own.has(formatIp(ip)),
  },
  { message: 'Requests to loopback addresses are not allowed', matches: (ip) => inV4(ip, '127.0.0.0', 8) || isV6(ip, '::1') },
  {
    // RFC 1918, IPv6 site-local (fec0::/10) and unique local (fc00::/7: fd00::/8 holds cloud metadata services).
    message: 'Requests to the local network are not allowed',
    matches: (ip) => inV4(ip, '10.0.0.0', 8) || inV4(ip, '172.16.0.0', 12) || inV4(ip, '192.168.0.0', 16) || inV6(ip, 0xfec0, 10) || inV6(ip, 0xfc00, 7),
  },
  {
    // 169.254.169.254 is the metadata service of most clouds.
    message: 'Requests to the link local network are not allowed',
    matches: (ip) => inV4(ip, '169.254.0.0', 16) || inV6(ip, 0xfe80, 10),
  },
  { message: 'Requests to the shared address space are not allowed', matches: (ip) => inV4(ip, '100.64.0.0', 10) },
  { message: 'Requests to the limited broadcast address are not allowed', matches: (ip) => ip.family === 4 && ip.value === 0xffffffff },
];

/** This host always reaches itself at these, whatever its interfaces say. */
const ALWAYS_OWN = ['127.0.0.1', '::1'];

/**
 * Why an import may not reach these addresses (GitLab's message without "is blocked: "), or null when
 * every one of them is public. `own` lists this host's interface addresses (os.networkInterfaces()).
 */
export function blockedAddressReason(addresses: string[], own: Iterable<string> = []): string | null {
  const ownSet = new Set([...ALWAYS_OWN, ...own].map(canonical));
  const ips = addresses.map((a) => {
    const ip = parseIp(a);
    if (!ip) throw new Error(`not an IP address: ${a}`);
    return embeddedIpv4(ip) ?? ip;
  });
  for (const rule of RULES) {
    if (ips.some((ip) => rule.matches(ip, ownSet))) return rule.message;
  }
  return null;
}

function canonical(address: string): string {
  const ip = parseIp(address);
  return ip ? formatIp(embeddedIpv4(ip) ?? ip) : address;
}
