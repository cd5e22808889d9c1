import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

describe('[SECURITY] headers on every response', () => {
  it("sends GitLab's hardening set: no framing by other sites, no sniffing, origin-only referrers", () => {
    expect(securityHeaders('http://runway.example:3000')).toEqual({
      'X-Frame-Options': 'SAMEORIGIN',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Permitted-Cross-Domain-Policies': 'none',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'",
    });
  });

  it('adds HSTS (one year, as GitLab.com) only when the external URL is https', () => {
    expect(securityHeaders('https://runway.example')['Strict-Transport-Security']).toBe('max-age=31536000');
    expect(securityHeaders('HTTPS://runway.example:8443/ci')['Strict-Transport-Security']).toBe('max-age=31536000');
    expect(securityHeaders('http://runway.example')).not.toHaveProperty('Strict-Transport-Security');
    expect(securityHeaders('http://localhost:3000')).not.toHaveProperty('Strict-Transport-Security');
  });
});
