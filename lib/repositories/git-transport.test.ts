// git connects to the address the blocker checked and nowhere else. Real git runs against stand-ins on
// loopback: the checked address is 127.0.0.2 (or ::1) while the system resolver would say 127.0.0.1 for
// `localhost`, where a decoy listens on the same port and must never be reached.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runGit } from './git';
import { gitTransport } from './git-transport';
import { parseIp } from './ip-address';
import { parseRemoteUrl } from './remote-url';
import { checkRemote } from './url-blocker';
import { gitHttpBackend, standIn as listen, type StandIn } from '../../tests/fixtures/stand-ins';
import { buildLinearRepo, removeRepo } from '../../tests/fixtures/git-repos';

const open: StandIn[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function standIn(host: string, port: number, onRequest?: http.RequestListener): Promise<StandIn> {
  const s = await listen(host, port, onRequest);
  open.push(s);
  return s;
}

/** The checked address listens on a free port; a decoy on 127.0.0.1 listens on the same port. */
async function pinnedAndDecoy(pinnedHost: string, onRequest?: http.RequestListener) {
  for (let attempt = 0; ; attempt++) {
    const pinned = await standIn(pinnedHost, 0, onRequest);
    try {
      const decoy = await standIn('127.0.0.1', pinned.port, onRequest);
      return { pinned, decoy };
    } catch (err) {
      await pinned.close();
      open.splice(open.indexOf(pinned), 1);
      if (attempt > 20) throw err;
    }
  }
}

/** Runs `git ls-remote` as an import would: checked, pinned, with `localhost` resolving to `answer`. */
async function lsRemote(url: string, answer: string) {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return host === 'localhost' ? [answer] : [];
  };
  const remote = parseRemoteUrl(url);
  const address = await checkRemote(remote, { mode: 'fetch', allowLocalNetwork: true, resolve });
  const t = gitTransport(remote, address!);
  const result = await runGit(['ls-remote', '--', t.url], { allowProtocols: t.protocol, config: t.config, sshOptions: t.sshOptions, timeoutMs: 20_000 }).then(
    () => 'ok',
    (err: Error) => err.message,
  );
  return { result, calls };
}

const notFound: http.RequestListener = (_req, res) => res.writeHead(404).end('no repository here');

describe('[REPOSITORIES] git transport pinned to the checked address', () => {
  it.each([
    ['127.0.0.2', '127.0.0.2'],
    ['an IPv6 answer', '::1'],
  ])('http: curl connects to the resolved address (%s), not to what the system resolver says', async (_name, address) => {
    const repo = buildLinearRepo(2);
    try {
      const { pinned, decoy } = await pinnedAndDecoy(address, gitHttpBackend(repo.dir));
      const { calls, result } = await lsRemote(`http://localhost:${pinned.port}/repo.git`, address);
      expect(result).toBe('ok');
      expect(calls).toEqual(['localhost']);
      expect(pinned.connections).toBeGreaterThan(0);
      expect(decoy.connections).toBe(0);
    } finally {
      removeRepo(repo);
    }
  });

  it('http: redirects are not followed (their target was never checked)', async () => {
    const target = await standIn('127.0.0.1', 0, notFound);
    const redirecting: http.RequestListener = (req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${target.port}${req.url}` }).end();
    const { pinned } = await pinnedAndDecoy('127.0.0.2', redirecting);
    const { result } = await lsRemote(`http://localhost:${pinned.port}/repo.git`, '127.0.0.2');
    expect(result).not.toBe('ok');
    expect(pinned.connections).toBeGreaterThan(0);
    expect(target.connections).toBe(0);
  });

  it('git://: the URL git is given holds the address', async () => {
    const { pinned, decoy } = await pinnedAndDecoy('127.0.0.2');
    const { result } = await lsRemote(`git://localhost:${pinned.port}/x`, '127.0.0.2');
    expect(result).not.toBe('ok');
    expect(pinned.connections).toBeGreaterThan(0);
    expect(decoy.connections).toBe(0);
  });

  it('ssh: ssh connects to the address (HostName) and keeps the name for its host keys (HostKeyAlias)', async () => {
    const { pinned, decoy } = await pinnedAndDecoy('127.0.0.2');
    await lsRemote(`ssh://git@localhost:${pinned.port}/x.git`, '127.0.0.2');
    expect(pinned.connections).toBeGreaterThan(0);
    expect(decoy.connections).toBe(0);
    const t = gitTransport(parseRemoteUrl('git@localhost:group/x.git'), parseIp('127.0.0.2')!);
    expect(t).toEqual({ url: 'git@localhost:group/x.git', config: [], sshOptions: ['-o HostName=127.0.0.2', '-o HostKeyAlias=localhost'], protocol: 'ssh' });
  });

  it('what git is given, per scheme', () => {
    const at = (url: string, address: string) => gitTransport(parseRemoteUrl(url), parseIp(address)!);
    expect(at('https://bot:s3cret@Example.com/g/r.git', '93.184.216.34')).toEqual({
      url: 'https://bot:s3cret@example.com/g/r.git',
      config: ['http.followRedirects=false', 'http.curloptResolve=example.com:443:93.184.216.34'],
      sshOptions: [],
      protocol: 'https',
    });
    expect(at('http://example.com:8080/r.git', '2606:4700::1111').config).toEqual([
      'http.followRedirects=false',
      'http.curloptResolve=example.com:8080:[2606:4700::1111]',
    ]);
    expect(at('http://0x7f.1:8080/r.git', '127.0.0.1')).toMatchObject({ url: 'http://127.0.0.1:8080/r.git', config: ['http.followRedirects=false'] });
    expect(at('git://example.com/r.git', '2606:4700::1111').url).toBe('git://[2606:4700::1111]/r.git');
    expect(at('git://2130706433:9000/r.git', '127.0.0.1').url).toBe('git://127.0.0.1:9000/r.git');
    expect(at('ssh://git@[2606:4700::1111]:2222/r.git', '2606:4700::1111')).toMatchObject({
      url: 'ssh://git@[2606:4700::1111]:2222/r.git',
      sshOptions: ['-o HostName=2606:4700::1111'],
    });
  });
});
