// What the http wrapper refuses before Next.js sees a request, answered in GitLab's JSON shape:
// undecodable paths (Next.js would answer a plain-text 500), bodies past RUNWAY_MAX_BODY_BYTES, and
// requests Node's parser rejects (over-long request lines and headers, malformed syntax).
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { externalUrl, maxBodyBytes } from '../config/env';
import { BASE_HEADERS as GITLAB_HEADERS } from '../api/response';
import { securityHeaders } from './security-headers';

const BASE_HEADERS = { ...GITLAB_HEADERS, 'Cache-Control': 'no-store' };

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Request Entity Too Large',
  431: 'Request Header Fields Too Large',
};
// GitLab's own wordings (bad_request!, file_too_large!); the others follow the same "<code> <reason>" form.
const MESSAGES: Record<number, string> = {
  400: '400 Bad request',
  408: '408 Request Timeout',
  413: '413 Request Entity Too Large',
  431: '431 Request Header Fields Too Large',
};

function errorBody(status: number): string {
  // The unknown-route catch-all's shape, as lib/api/errors' routeNotFound.
  if (status === 404) return JSON.stringify({ error: '404 Not Found' });
  return JSON.stringify({ message: MESSAGES[status] ?? `${status} ${STATUS_TEXT[status] ?? 'Error'}` });
}

/** Answers `status` with GitLab's JSON error body and closes the connection (the body is not read). */
export function refuse(res: http.ServerResponse, status: number): void {
  const body = errorBody(status);
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

export const isApiPath = (path: string) => path.startsWith('/api/');

/** The paths that answer JSON only, errors included: the API and /oauth (lib/oauth/handlers.ts). */
export const isJsonPath = (path: string) => isApiPath(path) || path === '/oauth' || path.startsWith('/oauth/');

/**
 * A path whose %-escapes do not decode to UTF-8, or decode to a NUL byte: GitLab's HandleMalformedStrings
 * middleware refuses both with 400 before any routing (Next.js would answer a plain-text 500).
 */
export function malformedPath(path: string): boolean {
  try {
    return decodeURIComponent(path).includes('\u0000');
  } catch {
    return true;
  }
}

/**
 * An API URL with repeated slashes in its path, squeezed to one (the query is left alone); null when there are
 * none. GitLab's Rails router normalizes a path so before matching (`/api/v4/version//` is `/api/v4/version`);
 * Next.js would answer a 308 whose Location and Refresh headers each repeat the whole URL, more than a client
 * reads once the query is a few KiB long.
 */
export function squeezedApiUrl(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!isApiPath(path) || !path.includes('//')) return null;
  return path.replace(/\/{2,}/g, '/') + (q === -1 ? '' : url.slice(q));
}

/**
 * A `.` or `..` segment (plain or %-escaped): Next.js would resolve it and answer from outside /api or
 * /oauth (an HTML page, or a redirect to sign in). No GitLab route has such a segment: an unknown route.
 */
export function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => {
    const value = segment.replace(/%2e/gi, '.');
    return value === '.' || value === '..';
  });
}

/**
 * Node's bounds on receiving a request (RUNWAY_REQUEST_TIMEOUT_SECONDS; GitLab's Workhorse and proxies
 * allow 60 s): headers and body must have arrived by then, else the client gets a 408 (answerClientError)
 * whoever was reading the body. Node stops timing a request once it has all arrived, so a held poll or an
 * event stream (a long answer) is never cut; an idle keep-alive connection is not timed either.
 */
export function requestTimeouts(seconds: number): Pick<http.ServerOptions, 'requestTimeout' | 'headersTimeout' | 'connectionsCheckingInterval'> {
  const ms = seconds * 1000;
  // Node checks every connection this often (30 s by default, too coarse for short timeouts).
  return { requestTimeout: ms, headersTimeout: ms, connectionsCheckingInterval: Math.min(30_000, Math.max(250, ms / 4)) };
}

/** A declared Content-Length past the limit: refused before a byte of the body is read. */
export function declaredTooLarge(req: http.IncomingMessage): boolean {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > maxBodyBytes();
}

/**
 * For routes outside /api/v4 (next-auth, pages), which read bodies whole: a body without a declared
 * length that grows past the limit closes the connection. /api/v4 handlers count their own bodies and
 * answer 413 (lib/api/input.ts).
 */
export function capUndeclaredBody(req: http.IncomingMessage): void {
  // Without Transfer-Encoding (and without Content-Length) an HTTP/1.1 request has no body at all.
  if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] === undefined) return;
  const limit = maxBodyBytes();
  let seen = 0;
  // The http parser hands every body chunk to push(), whoever reads the stream and however.
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk && typeof chunk !== 'string' && (chunk as Buffer).length) {
      seen += (chunk as Buffer).length;
      if (seen > limit) {
        req.destroy();
        return false;
      }
    }
    return push(chunk, encoding);
  };
}

function parserErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * server.on('clientError'): Node's default answers these with an empty body. The JSON answer is written
 * unless a response has already begun on the socket (a malformed chunk can arrive mid-request, before
 * the handler answered: the handler's later writes then go nowhere).
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): number | undefined {
  const current = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return undefined;
  }
  const status = parserErrorStatus(err.code);
  const body = errorBody(status);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // Written on the socket, past the http wrapper that sets these on every other answer.
    ...Object.entries({ ...BASE_HEADERS, ...securityHeaders(externalUrl()) }).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
  ].join('\r\n');
  // A HEAD request's answer has no body (its Content-Length still says what a GET would get): the
  // method is read off the bytes the parser refused.
  const rawPacket = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
  const headOnly = rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(`${head}\r\n\r\n${headOnly ? '' : body}`);
  // A client that keeps sending after the answer is not waited for.
  setTimeout(() => socket.destroy(), 2000).unref();
  return status;
}
