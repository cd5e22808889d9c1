// The address classification behind the import URL blocker (only classification: no address here is
// ever connected to).
import { describe, expect, it } from 'vitest';
import { blockedAddressReason } from './blocked-address';
import { embeddedIpv4, formatIp, parseIp, parseIpv4Loose, parseIpv6 } from './ip-address';

const LOCALHOST = 'Requests to localhost are not allowed';
const LOOPBACK = 'Requests to loopback addresses are not allowed';
const LOCAL_NETWORK = 'Requests to the local network are not allowed';
const LINK_LOCAL = 'Requests to the link local network are not allowed';
const SHARED = 'Requests to the shared address space are not allowed';
const BROADCAST = 'Requests to the limited broadcast address are not allowed';

describe('[REPOSITORIES] IP address spellings', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['017700000001', '127.0.0.1'],
    ['0xA9.0xFE.0xA9.0xFE', '169.254.169.254'],
    ['2852039166', '169.254.169.254'],
    ['10.0.0.1', '10.0.0.1'],
  ])('inet_aton reads %s as %s', (text, dotted) => {
    const value = parseIpv4Loose(text);
    expect(value).not.toBeNull();
    expect(formatIp({ family: 4, value: value! })).toBe(dotted);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '08.0.0.1', '0x1g', '1..2', '', 'localhost', '4294967296', '127.0.0.1.'])('%s is no IPv4 address', (text) => {
    expect(parseIpv4Loose(text)).toBeNull();
  });

  it.each([
    ['::1', '::1'],
    ['::', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['::FFFF:7F00:1', '::ffff:7f00:1'],
    ['fe80::1', 'fe80::1'],
    ['fd00:ec2::254', 'fd00:ec2::254'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
  ])('IPv6 %s is %s', (text, canonical) => {
    expect(formatIp({ family: 6, words: parseIpv6(text)! })).toBe(canonical);
  });

  it.each([':::1', '1::2::3', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', '12345::', '::1.2.3', '1:2:3:4:5:6:7:1.2.3.4'])('%s is no IPv6 address', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:0:10.0.0.1', '10.0.0.1'],
    ['::127.0.0.1', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['2002:c0a8:101::1', '192.168.1.1'],
  ])('%s carries %s', (text, inner) => {
    expect(formatIp(embeddedIpv4(parseIp(text)!)!)).toBe(inner);
  });

  it('::1 and :: carry no IPv4 address', () => {
    expect(embeddedIpv4(parseIp('::1')!)).toBeNull();
    expect(embeddedIpv4(parseIp('::')!)).toBeNull();
  });
});

describe('[REPOSITORIES] blocked addresses (GitLab UrlBlocker messages)', () => {
  it.each([
    ['127.0.0.1', LOCALHOST],
    ['::1', LOCALHOST],
    ['0.0.0.0', LOCALHOST],
    ['0.1.2.3', LOCALHOST],
    ['::', LOCALHOST],
    ['::ffff:127.0.0.1', LOCALHOST],
    ['127.0.0.2', LOOPBACK],
    ['127.255.255.254', LOOPBACK],
    ['::ffff:127.1.2.3', LOOPBACK],
    ['::127.0.0.2', LOOPBACK],
    ['10.0.0.1', LOCAL_NETWORK],
    ['172.16.0.1', LOCAL_NETWORK],
    ['172.31.255.255', LOCAL_NETWORK],
    ['192.168.1.1', LOCAL_NETWORK],
    ['::ffff:10.1.2.3', LOCAL_NETWORK],
    ['2002:c0a8:101::1', LOCAL_NETWORK],
    ['fc00::1', LOCAL_NETWORK],
    ['fd00::1', LOCAL_NETWORK],
    ['fd00:ec2::254', LOCAL_NETWORK],
    ['fec0::1', LOCAL_NETWORK],
    ['169.254.169.254', LINK_LOCAL],
    ['169.254.0.1', LINK_LOCAL],
    ['64:ff9b::a9fe:a9fe', LINK_LOCAL],
    ['fe80::1', LINK_LOCAL],
    ['febf:ffff::1', LINK_LOCAL],
    ['100.64.0.1', SHARED],
    ['100.127.255.255', SHARED],
    ['100.100.100.200', SHARED],
    ['255.255.255.255', BROADCAST],
  ])('%s: %s', (address, reason) => {
    expect(blockedAddressReason([address])).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '2606:4700::1111',
    'fbff::1',
    'fe7f::1',
    '2001:db8::1',
  ])('%s is public', (address) => {
    expect(blockedAddressReason([address])).toBeNull();
  });

  it("this host's own addresses count as localhost, in any spelling", () => {
    expect(blockedAddressReason(['203.0.113.7'], ['203.0.113.7'])).toBe(LOCALHOST);
    expect(blockedAddressReason(['::ffff:203.0.113.7'], ['203.0.113.7'])).toBe(LOCALHOST);
    expect(blockedAddressReason(['2001:db8::7'], ['2001:DB8:0::7'])).toBe(LOCALHOST);
    expect(blockedAddressReason(['203.0.113.8'], ['203.0.113.7'])).toBeNull();
  });

  it('one blocked address among public ones blocks, and the first rule in order names it', () => {
    expect(blockedAddressReason(['8.8.8.8', '10.0.0.1'])).toBe(LOCAL_NETWORK);
    expect(blockedAddressReason(['169.254.169.254', '10.0.0.1', '127.0.0.2'])).toBe(LOOPBACK);
  });
});
