// The runner fast path: the http wrapper hands POST /api/v4/jobs/request and /runners/verify straight to
// their route objects (lib/runner-agent/routes.ts, the ones the route files export), as GitLab answers
// runner polls in Workhorse before Rails. Everything the route does (parameters, authentication, errors,
// long polling) is the endpoint's own; this module only turns the Node request into the Web Request
// Next.js would have built and writes the Response back. The wrapper's request id, logging and edge
// guards run before it, for both ways in. RUNWAY_RUNNER_FAST_PATH=false sends them through Next.js.
import type http from 'node:http';
import { Readable } from 'node:stream';
import type { RouteHandler } from '../api/handler';
import { RUNNER_AGENT_ROUTES } from './routes';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const HOST_RE = /^[A-Za-z0-9.:[\]-]{1,255}$/;
const NO_PARAMS = { params: Promise.resolve({}) };

/** The handler the fast path serves `method path` with, or undefined to leave it to Next.js. */
export function fastPathHandler(method: string | undefined, path: string): RouteHandler | undefined {
  if (!method || !METHODS.has(method)) return undefined;
  return RUNNER_AGENT_ROUTES.get(path)?.[method as 'POST'];
}

/**
 * A small body with a declared length (every poll) is read before the Request is built: a buffer is much
 * cheaper than a web stream over the socket. The handler still applies the body limit (lib/api/input.ts)
 * to both; the wrapper has already refused a declared length past it.
 */
const BUFFERED_BODY_BYTES = 64 * 1024;

async function requestBody(req: http.IncomingMessage): Promise<Buffer | ReadableStream<Uint8Array>> {
  const length = Number(req.headers['content-length']);
  if (req.headers['transfer-encoding'] !== undefined || !Number.isInteger(length) || length > BUFFERED_BODY_BYTES) {
    return Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** The Web Request Next.js builds for a route handler, from the Node request. */
async function webRequest(req: http.IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Handlers read only the path and query of the URL; a Host no URL accepts must not turn into a 500.
  const host = req.headers.host && HOST_RE.test(req.headers.host) ? req.headers.host : 'localhost';
  return new Request(`http://${host}${req.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? await requestBody(req) : undefined,
    duplex: 'half',
    signal,
  } as RequestInit & { duplex: 'half' });
}

/**
 * Serves one request through `handler`. A client that goes away aborts the Request's signal (a held
 * long poll ends at once), as Next.js's signal does.
 */
export async function serveFastPath(req: http.IncomingMessage, res: http.ServerResponse, handler: RouteHandler): Promise<void> {
  const controller = new AbortController();
  // Only a client gone before the answer aborts (an abort builds a DOMException: not for every request).
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let request: Request;
  try {
    request = await webRequest(req, controller.signal);
  } catch (err) {
    // A client that went away mid-body is not an error of the server.
    if (req.destroyed || res.destroyed) return;
    throw err;
  }
  const response = await handler(request, NO_PARAMS);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (res.destroyed) return;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  res.end(body);
}
