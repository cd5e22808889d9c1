import { describe, expect, it } from 'vitest';
import { DEFAULT_MONITORING_ALLOWLIST, isAllowed, parseAllowlist } from './monitoring-allowlist';
import { statementKind } from '../metrics/registry';
import { readEnv } from './env';

describe('monitoring allowlist', () => {
  it('allows loopback only by default, IPv4, IPv6 and IPv4-mapped', () => {
    const list = parseAllowlist(DEFAULT_MONITORING_ALLOWLIST);
    expect(isAllowed(list, '127.0.0.1')).toBe(true);
    expect(isAllowed(list, '::1')).toBe(true);
    expect(isAllowed(list, '::ffff:127.0.0.1')).toBe(true);
    expect(isAllowed(list, '10.0.0.5')).toBe(false);
    expect(isAllowed(list, '::ffff:10.0.0.5')).toBe(false);
    expect(isAllowed(list, undefined)).toBe(false);
  });

  it('takes CIDR ranges and single addresses, and refuses nonsense', () => {
    const list = parseAllowlist('10.0.0.0/8, 192.0.2.7, fd00::/8');
    expect(isAllowed(list, '10.200.3.4')).toBe(true);
    expect(isAllowed(list, '192.0.2.7')).toBe(true);
    expect(isAllowed(list, '192.0.2.8')).toBe(false);
    expect(isAllowed(list, 'fd12::1')).toBe(true);
    expect(isAllowed(list, '127.0.0.1')).toBe(false);
    expect(() => parseAllowlist('10.0.0.0/33')).toThrow(/prefix/);
    expect(() => parseAllowlist('example.com')).toThrow(/not an IP/);
  });

  it('is validated with the rest of the configuration at start', () => {
    expect(() => readEnv({ RUNWAY_MONITORING_ALLOWLIST: '10.0.0.0/99' })).toThrow(/RUNWAY_MONITORING_ALLOWLIST: bad prefix length/);
    expect(readEnv({ RUNWAY_MONITORING_ALLOWLIST: '10.0.0.0/8' }).RUNWAY_MONITORING_ALLOWLIST).toBe('10.0.0.0/8');
  });
});

describe('statement kinds', () => {
  it('labels a statement by its first keyword, WITH queries by their main verb', () => {
    expect(statementKind('SELECT 1')).toBe('SELECT');
    expect(statementKind('  update ci_runners set x = 1')).toBe('UPDATE');
    expect(statementKind('WITH t AS (SELECT 1) DELETE FROM x')).toBe('DELETE');
    expect(statementKind('BEGIN')).toBe('other');
  });
});
