import { describe, expect, it } from 'vitest';
import { cspNonce, pageContentSecurityPolicy } from './page-csp';

/** The policy as directive name -> sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe("[SECURITY] the pages' Content-Security-Policy", () => {
  it("allows scripts by this request's nonce only (strict-dynamic), never eval in production", () => {
    const policy = directives(pageContentSecurityPolicy('bm9uY2U=', { dev: false }));
    expect(policy.get('script-src')).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'"]);
    expect([...policy.values()].flat()).not.toContain("'unsafe-eval'");
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('lets the development server use eval (React rebuilds server error stacks with it)', () => {
    expect(directives(pageContentSecurityPolicy('bm9uY2U=', { dev: true })).get('script-src')).toContain("'unsafe-eval'");
  });

  it("keeps GitLab's other defaults: same-origin framing only, no plugins, no foreign form targets or base URLs", () => {
    const policy = directives(pageContentSecurityPolicy('bm9uY2U=', { dev: false }));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // Inline style attributes (charts, server-rendered style attributes) as GitLab allows them.
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('makes a fresh, unguessable nonce each time (128 random bits, base64)', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => cspNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
