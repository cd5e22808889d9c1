// Responses exactly as GitLab sends them: `Content-Type: application/json` with no charset (python-gitlab
// 3.12 compares the header for equality), plus GitLab's two hardening headers on every answer.

export const BASE_HEADERS = { 'X-Frame-Options': 'SAMEORIGIN', 'X-Content-Type-Options': 'nosniff' } as const;

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const body = Buffer.from(JSON.stringify(data));
  // A known length lets Node send the answer in one write instead of chunked (data, then the last chunk).
  return new Response(body, {
    status,
    headers: { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': String(body.length), ...headers },
  });
}

export function noContent(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 204, headers: { ...BASE_HEADERS, ...headers } });
}

export const created = (data: unknown, headers?: Record<string, string>) => json(data, 201, headers);

// GitLab's 429 is the rate limiter's answer; it lives there (lib/rate-limits sits below lib/api).
export { retryLater } from '../rate-limits/entity';
