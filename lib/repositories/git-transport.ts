// How git is told to connect to the checked address and nowhere else: http(s) keeps the URL (TLS and
// virtual hosts need the name) and curl gets the name's address (http.curloptResolve); git:// gets the
// address in the URL; ssh keeps the name for its configuration and host keys and connects to the
// address (HostName, HostKeyAlias). Redirects are not followed: their target was never checked.
import { formatIp, type Ip } from './ip-address';
import type { RemoteUrl } from './remote-url';

export interface GitTransport {
  /** The URL git is given. */
  url: string;
  /** `-c key=value` pairs placed before git's command. */
  config: string[];
  /** Options added to the ssh command line. */
  sshOptions: string[];
  /** The one protocol git may use (GIT_ALLOW_PROTOCOL). */
  protocol: string;
}

const bracketed = (ip: Ip) => (ip.family === 6 ? `[${formatIp(ip)}]` : formatIp(ip));
const urlHost = (remote: RemoteUrl) => (remote.literal ? bracketed(remote.literal) : remote.host);

/** The git invocation for a remote whose address was checked (`address`: where to connect). */
export function gitTransport(remote: RemoteUrl, address: Ip): GitTransport {
  const port = remote.explicitPort ? `:${remote.port}` : '';
  switch (remote.scheme) {
    case 'http':
    case 'https': {
      const config = ['http.followRedirects=false'];
      if (!remote.literal) config.push(`http.curloptResolve=${remote.host}:${remote.port}:${bracketed(address)}`);
      return { url: remote.href!, config, sshOptions: [], protocol: remote.scheme };
    }
    case 'git':
      return { url: `git://${bracketed(address)}${port}${remote.path}`, config: [], sshOptions: [], protocol: 'git' };
    case 'ssh': {
      const user = remote.user ? `${remote.user}@` : '';
      const url = remote.scpLike ? `${user}${urlHost(remote)}:${remote.path}` : `ssh://${user}${urlHost(remote)}${port}${remote.path}`;
      // The host name and address were validated to letters, digits, '.', '-', '_' and ':' (the ssh
      // command line goes through a shell).
      const sshOptions = [`-o HostName=${formatIp(address)}`];
      if (!remote.literal) sshOptions.push(`-o HostKeyAlias=${remote.host}`);
      return { url, config: [], sshOptions, protocol: 'ssh' };
    }
  }
}
