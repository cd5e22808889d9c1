// GitLab's UrlBlocker for import URLs: the host is resolved once, every address it resolves to is
// checked, and the first one is what git connects to (git-transport.ts pins it), so a DNS answer that
// changes between the check and the connection (DNS rebinding) changes nothing.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import { blockedAddressReason } from './blocked-address';
import { formatIp, parseIp, type Ip } from './ip-address';
import type { RemoteUrl } from './remote-url';

/** Every address a host name resolves to (the system resolver: /etc/hosts, then DNS). */
export type Resolver = (host: string) => Promise<string[]>;

export class BlockedUrlError extends Error {}

// GitLab's GETADDRINFO_TIMEOUT_SECONDS.
const RESOLVE_TIMEOUT_MS = 15_000;

export const systemResolver: Resolver = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const interfaceAddresses = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .map((i) => i?.address)
    .filter((a): a is string => Boolean(a));

export interface BlockerOptions {
  /** The admin setting allow_local_requests_from_web_hooks_and_services. */
  allowLocalNetwork: boolean;
  /**
   * `request`: when the project is saved; nothing is pinned. `fetch`: right before git runs; the address
   * returned is the one to connect to. Either way the host must resolve ("Host cannot be resolved or
   * invalid"): GitLab's API contacts the remote before it saves the project, and refuses it with 422 when the
   * name does not resolve, so Runway resolves it then too (without contacting it), the local network allowed or not.
   */
  mode: 'request' | 'fetch';
  resolve?: Resolver;
  /** This host's own addresses (default: its network interfaces). */
  ownAddresses?: () => string[];
}

/** Checks where the URL leads; returns the address to pin (null when nothing was resolved). Throws BlockedUrlError. */
export async function checkRemote(remote: RemoteUrl, opts: BlockerOptions): Promise<Ip | null> {
  let addresses: Ip[];
  if (remote.literal) addresses = [remote.literal];
  else {
    const found = await resolveWithTimeout(remote.host, opts.resolve ?? systemResolver);
    if (!found) throw new BlockedUrlError('Host cannot be resolved or invalid');
    addresses = found;
  }
  if (!opts.allowLocalNetwork) {
    const reason = blockedAddressReason(addresses.map(formatIp), (opts.ownAddresses ?? interfaceAddresses)());
    if (reason) throw new BlockedUrlError(reason);
  }
  return opts.mode === 'request' ? null : addresses[0];
}

async function resolveWithTimeout(host: string, resolve: Resolver): Promise<Ip[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), RESOLVE_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const answer = await Promise.race([resolve(host).catch(() => null), timeout]);
    const ips = (answer ?? []).map(parseIp).filter((ip): ip is Ip => ip !== null);
    return ips.length ? ips : null;
  } finally {
    clearTimeout(timer);
  }
}

/** A `lookup` for http(s).request: whatever name the URL has, the socket goes to the address the blocker checked. */
export function pinnedLookup(address: Ip): LookupFunction {
  const family = address.family;
  const ip = formatIp(address);
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: ip, family }]);
    else callback(null, ip, family);
  };
}
