// The Content-Security-Policy of Runway's pages, set by proxy.ts on each page request. GitLab's defaults
// (lib/gitlab/content_security_policy/config_loader.rb) narrowed to what Runway's pages load: scripts only by
// this request's nonce, and what they load in turn ('strict-dynamic': Next.js adds its chunks at run time);
// inline style attributes allowed, as GitLab allows them (charts, server-rendered style attributes).
// Next.js reads the nonce from the request's policy and puts it on every script it renders.

/** 128 random bits, base64, as GitLab's nonce generator. A page request gets a fresh one. */
export function cspNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

/** The policy for one page response; `dev`: the development server, where React needs eval. */
export function pageContentSecurityPolicy(nonce: string, opts: { dev: boolean }): string {
  const script = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(opts.dev ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "img-src 'self' data: blob:",
    "manifest-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    `script-src ${script.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
  ].join('; ');
}
