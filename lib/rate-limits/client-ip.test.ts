import { describe, expect, it } from 'vitest';
import { parseAllowlist } from '../config/monitoring-allowlist';
import { CLIENT_IP_HEADER, clientIp, normalizeIp, resolveClientIp } from './client-ip';

const NONE = parseAllowlist('');
const PROXIES = parseAllowlist('127.0.0.1, 10.0.0.0/8, fd00::/8');

describe('[LIMITS] normalizeIp', () => {
  it('writes each address one way: IPv4-mapped IPv6 as IPv4, IPv6 canonical', () => {
    expect(normalizeIp(' 203.0.113.9 ')).toBe('203.0.113.9');
    expect(normalizeIp('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeIp('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(normalizeIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeIp('::1')).toBe('::1');
  });

  it('refuses what is not an address', () => {
    for (const bad of ['', 'unknown', '<script>', '203.0.113.9:80', '[::1]', '01.2.3.4', '1.2.3', '999.1.1.1', 'fe80::1%eth0', '203.0.113.9 203.0.113.8']) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
  });
});

describe('[LIMITS] resolveClientIp', () => {
  it('with no trusted proxy (the default) takes the socket address whatever X-Forwarded-For claims', () => {
    expect(resolveClientIp('127.0.0.1', '203.0.113.9', NONE)).toBe('127.0.0.1');
    expect(resolveClientIp('10.0.0.2', '203.0.113.9', NONE)).toBe('10.0.0.2');
    expect(resolveClientIp('::ffff:198.51.100.4', undefined, NONE)).toBe('198.51.100.4');
  });

  it('takes an untrusted peer as it is', () => {
    expect(resolveClientIp('198.51.100.4', '203.0.113.9', PROXIES)).toBe('198.51.100.4');
    // Private networks are not trusted unless listed.
    expect(resolveClientIp('192.168.1.5', '203.0.113.9', PROXIES)).toBe('192.168.1.5');
  });

  it('behind trusted proxies takes the right-most hop that is not one', () => {
    expect(resolveClientIp('127.0.0.1', '203.0.113.9', PROXIES)).toBe('203.0.113.9');
    expect(resolveClientIp('::ffff:127.0.0.1', '203.0.113.9', PROXIES)).toBe('203.0.113.9');
    // A hop the client wrote before the proxy's own does not count.
    expect(resolveClientIp('127.0.0.1', '1.2.3.4, 203.0.113.9', PROXIES)).toBe('203.0.113.9');
    expect(resolveClientIp('127.0.0.1', '203.0.113.9, 10.1.1.1,fd00::5', PROXIES)).toBe('203.0.113.9');
    expect(resolveClientIp('127.0.0.1', ['1.2.3.4', '203.0.113.9'], PROXIES)).toBe('203.0.113.9');
    expect(resolveClientIp('127.0.0.1', '::ffff:203.0.113.9', PROXIES)).toBe('203.0.113.9');
  });

  it('ends the walk at a hop that is not an address, keeping the last trusted one', () => {
    expect(resolveClientIp('127.0.0.1', 'not-an-ip', PROXIES)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '203.0.113.9, <script>', PROXIES)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '203.0.113.9, garbage, 10.0.0.7', PROXIES)).toBe('10.0.0.7');
    expect(resolveClientIp('127.0.0.1', '203.0.113.9, ', PROXIES)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '203.0.113.9:4711', PROXIES)).toBe('127.0.0.1');
  });

  it('falls back to the left-most hop when every one is a trusted proxy, and to the socket without any', () => {
    expect(resolveClientIp('127.0.0.1', '10.0.0.9, 10.0.0.8', PROXIES)).toBe('10.0.0.9');
    expect(resolveClientIp('127.0.0.1', undefined, PROXIES)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '', PROXIES)).toBe('127.0.0.1');
    expect(resolveClientIp(undefined, '203.0.113.9', PROXIES)).toBe('unknown');
  });
});

describe('[LIMITS] clientIp', () => {
  it("reads the wrapper's header and nothing a client could send", () => {
    expect(clientIp(new Headers({ [CLIENT_IP_HEADER]: '203.0.113.9', 'x-forwarded-for': '1.2.3.4' }))).toBe('203.0.113.9');
    expect(clientIp(new Headers({ 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '1.2.3.4' }))).toBe('unknown');
  });
});
