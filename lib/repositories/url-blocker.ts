// GitLab's UrlBlocker for import URLs: the host is resolved once, every address it resolves to is
// checked, and the first one is what git connects to (git-transport.ts pins it), so a DNS answer that
// changes between the check and the connection (DNS rebinding) changes nothing.
import dns from 'node:dns';
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
   * `request`: when the project is saved; a host that does not resolve passes, and with the local network
   * allowed nothing is resolved (GitLab's model validation). `fetch`: right before git runs; the host must
   * resolve, and the address returned is the one to connect to.
   */
  mode: 'request' | 'fetch';
  resolve?: Resolver;
  /** This host's own addresses (default: its network interfaces). */
  ownAddresses?: () => string[];
}

/** Checks where the URL leads; returns the address to pin (null when nothing was resolved). Throws BlockedUrlError. */
export async function checkRemote(remote: RemoteUrl, opts: BlockerOptions): Promise<Ip | null> {
  if (opts.mode === 'request' && opts.allowLocalNetwork) return null;
  let addresses: Ip[];
  if (remote.literal) addresses = [remote.literal];
  else {
    const found = await resolveWithTimeout(remote.host, opts.resolve ?? systemResolver);
    if (!found) {
      if (opts.mode === 'request') return null;
      throw new BlockedUrlError('Host cannot be resolved or invalid');
    }
    addresses = found;
  }
  if (!opts.allowLocalNetwork) {
    const reason = blockedAddressReason(addresses.map(formatIp), (opts.ownAddresses ?? interfaceAddresses)());
    if (reason) throw new BlockedUrlError(reason);
  }
  return addresses[0];
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
