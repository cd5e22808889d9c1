import { describe, expect, it } from 'vitest';
import { clientIp, PEER_ADDRESS_HEADER } from './client-ip';

const ip = (peer: string | null, forwarded?: string) => {
  const h = new Headers();
  if (peer !== null) h.set(PEER_ADDRESS_HEADER, peer);
  if (forwarded !== undefined) h.set('x-forwarded-for', forwarded);
  return clientIp(h);
};

describe('clientIp', () => {
  it('takes a public peer as it is, whatever X-Forwarded-For claims', () => {
    expect(ip('198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
    expect(ip('::ffff:198.51.100.4')).toBe('198.51.100.4');
  });

  it('behind a trusted proxy takes the right-most hop that is not a trusted proxy', () => {
    expect(ip('127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // A client-sent hop before the one the proxy appended does not count.
    expect(ip('10.0.0.2', '1.2.3.4, 203.0.113.9')).toBe('203.0.113.9');
    expect(ip('::1', '203.0.113.9, 192.168.1.10, 172.16.0.3')).toBe('203.0.113.9');
  });

  it('falls back to the peer when every hop is a trusted proxy', () => {
    expect(ip('127.0.0.1', '127.0.0.1')).toBe('127.0.0.1');
    expect(ip('127.0.0.1')).toBe('127.0.0.1');
    expect(ip(null, '10.1.1.1')).toBe('10.1.1.1');
    expect(ip(null)).toBe('unknown');
  });
});
