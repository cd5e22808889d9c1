// Import URLs through the blocker: every scheme and host spelling, resolution injected (no resolver or
// address outside this process is ever asked or reached).
import { describe, expect, it } from 'vitest';
import { formatIp } from './ip-address';
import { parseRemoteUrl, RemoteUrlError } from './remote-url';
import { BlockedUrlError, checkRemote, type BlockerOptions, type Resolver } from './url-blocker';

const LOCALHOST = 'Requests to localhost are not allowed';
const LOOPBACK = 'Requests to loopback addresses are not allowed';
const LOCAL_NETWORK = 'Requests to the local network are not allowed';
const LINK_LOCAL = 'Requests to the link local network are not allowed';

/** A resolver that answers from a table and counts its calls; names not in the table do not resolve. */
function table(answers: Record<string, string[] | string[][]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    const n = calls.filter((h) => h === host).length;
    calls.push(host);
    const answer = answers[host];
    if (!answer) throw new Error(`ENOTFOUND ${host}`);
    // A list of lists answers differently on each call (DNS rebinding).
    return Array.isArray(answer[0]) ? (answer as string[][])[Math.min(n, answer.length - 1)] : (answer as string[]);
  };
  return { resolve, calls };
}

const noResolver: Resolver = async (host) => {
  throw new Error(`unexpected resolution of ${host}`);
};
const fetchMode = (resolve: Resolver, allowLocalNetwork = false): BlockerOptions => ({ mode: 'fetch', allowLocalNetwork, resolve, ownAddresses: () => [] });

async function reason(url: string, resolve: Resolver = noResolver): Promise<string | null> {
  try {
    await checkRemote(parseRemoteUrl(url), fetchMode(resolve));
    return null;
  } catch (err) {
    if (err instanceof BlockedUrlError || err instanceof RemoteUrlError) return err.message;
    throw err;
  }
}

describe('[REPOSITORIES] import URL parsing', () => {
  it.each([
    ['http://127.0.0.1:8080/repo.git', 'http', '127.0.0.1', 8080],
    ['https://Example.COM/group/repo.git', 'https', 'example.com', 443],
    ['http://2130706433/', 'http', '127.0.0.1', 80],
    ['http://0177.0.0.1/', 'http', '127.0.0.1', 80],
    ['http://0x7f.1/', 'http', '127.0.0.1', 80],
    ['http://[::ffff:127.0.0.1]/', 'http', '::ffff:7f00:1', 80],
    ['http://[::1]:3000/', 'http', '::1', 3000],
    ['git://127.0.0.1:9418/x', 'git', '127.0.0.1', 9418],
    ['git://0x7f.1/x', 'git', '127.0.0.1', 9418],
    ['git://2130706433:5000/x', 'git', '127.0.0.1', 5000],
    ['git://[::1]/x', 'git', '::1', 9418],
    ['ssh://git@0177.1:2222/x.git', 'ssh', '127.0.0.1', 2222],
    ['ssh://[fe80::1]/x.git', 'ssh', 'fe80::1', 22],
    ['git@0x7f000001:group/x.git', 'ssh', '127.0.0.1', 22],
    ['git@example.com:group/x.git', 'ssh', 'example.com', 22],
  ])('%s: %s to %s port %s', (url, scheme, host, port) => {
    expect(parseRemoteUrl(url)).toMatchObject({ scheme, host, port });
  });

  it.each([
    ['http://127.0.0.1:25/', 'Only allowed ports are 22, 80, 443, and any over 1024'],
    ['git://example.com:0/x', 'Only allowed ports are 22, 80, 443, and any over 1024'],
    ['ssh://git@example.com:70000/x', 'URI is invalid'],
    ['http://-bad@example.com/', 'Username needs to start with an alphanumeric character'],
    ['ssh://-oProxyCommand=x@example.com/x', 'Username needs to start with an alphanumeric character'],
    ['ssh://git@-oProxyCommand=x/x', 'Hostname or IP address invalid'],
    ['git://exa$mple.com/x', 'Hostname or IP address invalid'],
    ['git://256.1.1.1/x', 'Hostname or IP address invalid'],
    ['git://1.2.3.4.5/x', 'Hostname or IP address invalid'],
    ['git://[fe80::1%25eth0]/x', 'Hostname or IP address invalid'],
    ['git://[127.0.0.1]/x', 'Hostname or IP address invalid'],
    ['git://user@example.com/x', 'URI is invalid'],
    ['git://example.com', 'URI is invalid'],
    ['http://[::1/', 'URI is invalid'],
  ])('%s is refused: %s', (url, message) => {
    expect(() => parseRemoteUrl(url)).toThrow(message);
  });
});

describe('[REPOSITORIES] import URL blocker', () => {
  it.each([
    ['http://127.0.0.1:8080/repo.git', LOCALHOST],
    ['http://2130706433/', LOCALHOST],
    ['http://0177.0.0.1/', LOCALHOST],
    ['http://0x7f.1/', LOCALHOST],
    ['http://[::ffff:127.0.0.1]/', LOCALHOST],
    ['http://[::1]/', LOCALHOST],
    ['http://0.0.0.0/', LOCALHOST],
    ['http://[::]/', LOCALHOST],
    ['https://127.0.0.2/', LOOPBACK],
    ['http://10.0.0.5/', LOCAL_NETWORK],
    ['http://[fd00::1]/', LOCAL_NETWORK],
    ['http://169.254.169.254/latest/meta-data/', LINK_LOCAL],
    ['http://[fe80::1]/', LINK_LOCAL],
    ['http://[::ffff:169.254.169.254]/', LINK_LOCAL],
    ['http://100.64.0.1/', 'Requests to the shared address space are not allowed'],
    ['http://255.255.255.255/', 'Requests to the limited broadcast address are not allowed'],
    ['git://127.0.0.1:9418/x', LOCALHOST],
    ['git://0x7f.1/x', LOCALHOST],
    ['git://[::1]/x', LOCALHOST],
    ['git://192.168.0.10/x', LOCAL_NETWORK],
    ['ssh://git@127.0.0.1/x.git', LOCALHOST],
    ['ssh://git@[fd12::1]:2222/x.git', LOCAL_NETWORK],
    ['git@10.1.2.3:group/x.git', LOCAL_NETWORK],
    ['git@2130706433:group/x.git', LOCALHOST],
  ])('IP literal %s: %s (never resolved)', async (url, message) => {
    expect(await reason(url)).toBe(message);
  });

  it('decides on what a name resolves to, for every scheme', async () => {
    const { resolve } = table({
      localhost: ['127.0.0.1'],
      'metadata.internal': ['169.254.169.254'],
      'db.corp': ['10.0.0.9'],
      'gitlab.example': ['93.184.216.34'],
    });
    expect(await reason('http://localhost:3000/repo.git', resolve)).toBe(LOCALHOST);
    expect(await reason('https://metadata.internal/latest', resolve)).toBe(LINK_LOCAL);
    expect(await reason('git://db.corp/x', resolve)).toBe(LOCAL_NETWORK);
    expect(await reason('ssh://git@db.corp/x', resolve)).toBe(LOCAL_NETWORK);
    expect(await reason('git@localhost:x.git', resolve)).toBe(LOCALHOST);
    expect(await reason('https://gitlab.example/group/repo.git', resolve)).toBeNull();
  });

  it('a name with a public and a private address is refused (every address is checked)', async () => {
    const { resolve } = table({ 'mixed.example': ['93.184.216.34', '10.0.0.1'] });
    expect(await reason('https://mixed.example/x.git', resolve)).toBe(LOCAL_NETWORK);
  });

  it('DNS rebinding: the name is resolved once and that answer is the address to connect to', async () => {
    const { resolve, calls } = table({ 'rebind.example': [['93.184.216.34'], ['127.0.0.1']] });
    const address = await checkRemote(parseRemoteUrl('https://rebind.example/x.git'), fetchMode(resolve));
    expect(formatIp(address!)).toBe('93.184.216.34');
    expect(calls).toEqual(['rebind.example']);
    // Asked again (the job's check), the new answer is judged on its own.
    expect(await reason('https://rebind.example/x.git', resolve)).toBe(LOCALHOST);
  });

  it('the first answer is pinned; IPv6 answers too', async () => {
    const { resolve } = table({ 'v6.example': ['2606:4700::1111', '93.184.216.34'] });
    expect(formatIp((await checkRemote(parseRemoteUrl('git://v6.example/x'), fetchMode(resolve)))!)).toBe('2606:4700::1111');
  });

  it("a name that does not resolve: refused when saved and at the fetch, the local network allowed or not (GitLab's API contacts the remote before saving)", async () => {
    const { resolve } = table({});
    expect(await reason('https://nowhere.example/x.git', resolve)).toBe('Host cannot be resolved or invalid');
    for (const allowLocalNetwork of [false, true]) {
      for (const url of ['https://nowhere.example/x.git', 'git://nowhere.example/x', 'ssh://git@nowhere.example/x.git']) {
        await expect(checkRemote(parseRemoteUrl(url), { mode: 'request', allowLocalNetwork, resolve, ownAddresses: () => [] })).rejects.toThrow(
          'Host cannot be resolved or invalid',
        );
      }
    }
    // A name that resolves is judged when saved too, and nothing is pinned then.
    const local = table({ localhost: ['127.0.0.1'], 'far.example': ['93.184.216.34'] });
    await expect(
      checkRemote(parseRemoteUrl('http://localhost:3000/x.git'), { mode: 'request', allowLocalNetwork: false, resolve: local.resolve, ownAddresses: () => [] }),
    ).rejects.toThrow(LOCALHOST);
    expect(
      await checkRemote(parseRemoteUrl('https://far.example/x.git'), {
        mode: 'request',
        allowLocalNetwork: false,
        resolve: local.resolve,
        ownAddresses: () => [],
      }),
    ).toBeNull();
  });

  it("this host's own addresses are localhost", async () => {
    const { resolve } = table({ 'me.example': ['198.51.100.20'] });
    const opts = { ...fetchMode(resolve), ownAddresses: () => ['198.51.100.20'] };
    await expect(checkRemote(parseRemoteUrl('https://me.example/x.git'), opts)).rejects.toThrow(LOCALHOST);
  });

  it('with the local network allowed: the name is resolved when saved (only to know it resolves), and the fetch pins the answer', async () => {
    const { resolve, calls } = table({ localhost: ['127.0.0.1'] });
    const url = parseRemoteUrl('http://localhost:3000/x.git');
    expect(await checkRemote(url, { mode: 'request', allowLocalNetwork: true, resolve, ownAddresses: () => [] })).toBeNull();
    expect(calls).toEqual(['localhost']);
    expect(formatIp((await checkRemote(url, fetchMode(resolve, true)))!)).toBe('127.0.0.1');
    expect(calls).toEqual(['localhost', 'localhost']);
  });
});
