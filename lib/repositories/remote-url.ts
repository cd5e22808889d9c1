// A remote import URL taken apart strictly, so that what the blocker checks is exactly what git is
// later given: http(s) through the WHATWG parser (git receives its normalised form), git:// and ssh://
// and scp-like `user@host:path` through narrow patterns (git receives them rebuilt from the parts).
import { formatIp, parseIp, parseIpv4Loose, type Ip } from './ip-address';

export type RemoteScheme = 'http' | 'https' | 'git' | 'ssh';

export interface RemoteUrl {
  scheme: RemoteScheme;
  /** `user@host:path`: ssh without a scheme. */
  scpLike: boolean;
  /** http(s): the normalised URL; otherwise the user part (ssh) and the path as written. */
  href: string | null;
  user: string | null;
  /** Lower-case host name, or the canonical form of an IP literal (no brackets). */
  host: string;
  /** Set when the host is an IP address, however it was spelled. */
  literal: Ip | null;
  port: number;
  explicitPort: boolean;
  path: string;
}

const DEFAULT_PORTS: Record<RemoteScheme, number> = { http: 80, https: 443, git: 9418, ssh: 22 };
// Ports below 1024 other than these are refused (GitLab's VALID_MIRROR_PORTS: Runway imports over ssh too).
export const ALLOWED_LOW_PORTS = [22, 80, 443];

export class RemoteUrlError extends Error {}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i;
const SSH_USER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const GIT_URL = /^git:\/\/(\[[^\]/]*\]|[^/:@[\]]+)(?::(\d*))?(\/\S*)$/i;
const SSH_URL = /^ssh:\/\/(?:([^@/]*)@)?(\[[^\]/]*\]|[^/:@[\]]+)(?::(\d*))?(\/\S*)$/i;
const SCP_LIKE = /^([^@/:]+)@([^/:@[\]]+):(.+)$/;

/** Whether the URL names a remote transport at all (its details may still be refused). */
export function looksRemote(url: string): boolean {
  return /^(https?|git|ssh):\/\//i.test(url) || SCP_LIKE.test(url);
}

/** Parses a remote import URL; throws RemoteUrlError with GitLab's UrlBlocker message. */
export function parseRemoteUrl(url: string): RemoteUrl {
  const scheme = /^([a-z]+):\/\//i.exec(url)?.[1].toLowerCase();
  if (scheme === 'http' || scheme === 'https') return parseHttp(url, scheme);
  if (scheme === 'git' || scheme === 'ssh') {
    const m = (scheme === 'git' ? GIT_URL : SSH_URL).exec(url);
    if (!m) throw new RemoteUrlError('URI is invalid');
    const [user, host, port, path] = scheme === 'git' ? [null, m[1], m[2], m[3]] : [m[1] ?? null, m[2], m[3], m[4]];
    return finish({ scheme, scpLike: false, href: null, user: checkSshUser(user), path }, host, port);
  }
  const scp = SCP_LIKE.exec(url);
  if (!scp) throw new RemoteUrlError('URI is invalid');
  return finish({ scheme: 'ssh', scpLike: true, href: null, user: checkSshUser(scp[1]), path: scp[3] }, scp[2], undefined);
}

function parseHttp(url: string, scheme: 'http' | 'https'): RemoteUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RemoteUrlError('URI is invalid');
  }
  if (u.username && !/^[A-Za-z0-9]/.test(decodeURIComponent(u.username))) {
    throw new RemoteUrlError('Username needs to start with an alphanumeric character');
  }
  // The WHATWG parser has already turned every IPv4 spelling into dotted decimal.
  return finish({ scheme, scpLike: false, href: u.href, user: null, path: u.pathname }, u.hostname, u.port || undefined);
}

function checkSshUser(user: string | null): string | null {
  if (user === null) return null;
  if (!/^[A-Za-z0-9]/.test(user)) throw new RemoteUrlError('Username needs to start with an alphanumeric character');
  if (!SSH_USER.test(user)) throw new RemoteUrlError('URI is invalid');
  return user;
}

function finish(parts: Omit<RemoteUrl, 'host' | 'literal' | 'port' | 'explicitPort'>, rawHost: string, rawPort: string | undefined): RemoteUrl {
  const { host, literal } = parseHost(rawHost);
  const explicitPort = rawPort !== undefined && rawPort !== '';
  const port = explicitPort ? Number(rawPort) : DEFAULT_PORTS[parts.scheme];
  if (!Number.isInteger(port) || port > 65535) throw new RemoteUrlError('URI is invalid');
  if (port < 1024 && !ALLOWED_LOW_PORTS.includes(port)) {
    throw new RemoteUrlError(`Only allowed ports are ${ALLOWED_LOW_PORTS.join(', ')}, and any over 1024`);
  }
  return { ...parts, host, literal, port, explicitPort };
}

function parseHost(raw: string): { host: string; literal: Ip | null } {
  if (raw.startsWith('[')) {
    const ip = raw.endsWith(']') ? parseIp(raw.slice(1, -1)) : null;
    if (!ip || ip.family !== 6) throw new RemoteUrlError('Hostname or IP address invalid');
    return { host: formatIp(ip), literal: ip };
  }
  // git and ssh hand the host to getaddrinfo, which reads every inet_aton spelling as an address.
  const v4 = parseIpv4Loose(raw);
  if (v4 !== null) {
    const literal: Ip = { family: 4, value: v4 };
    return { host: formatIp(literal), literal };
  }
  // A name ending in a number that is no address (`256.1.1.1`, `1.2.3.4.5`) is refused, as URL parsers do.
  if (!HOST_NAME.test(raw) || raw.length > 253 || /(^|\.)(\d+|0x[0-9a-f]*)\.?$/i.test(raw)) throw new RemoteUrlError('Hostname or IP address invalid');
  return { host: raw.toLowerCase(), literal: null };
}
