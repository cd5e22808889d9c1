// Whether an error means "the database cannot be reached right now" (refused, terminated, shut down,
// out of connections, pool timeout) rather than a bug: such requests answer 503, which clients, the
// gitlab-runner agent included, retry later. Errors arrive from pg directly (lib/db/query) or wrapped by
// Prisma and its driver adapter, so the whole cause chain is searched.

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// SQLSTATE: 57P01-03 admin/crash shutdown and "cannot connect now", 53300 too many connections; class 08 below.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// Prisma: can't reach, timed out, server closed the connection, pool timeout, too many connections.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
// The driver adapter's kinds for the same conditions.
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// pg's own messages for a connection lost or never obtained.
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /is not currently accepting connections/,
  /the database system is (starting up|shutting down|in recovery mode)/,
  /Can't reach database server/,
];

function matches(node: Record<string, unknown>): boolean {
  const code = typeof node.code === 'string' ? node.code : undefined;
  if (code && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08') || PRISMA_CODES.has(code))) return true;
  if (typeof node.originalCode === 'string' && (SQLSTATES.has(node.originalCode) || node.originalCode.startsWith('08'))) return true;
  if (typeof node.kind === 'string' && ADAPTER_KINDS.has(node.kind)) return true;
  const message = typeof node.message === 'string' ? node.message : '';
  return PG_MESSAGES.some((re) => re.test(message));
}

export function isDatabaseUnavailable(err: unknown): boolean {
  const queue: unknown[] = [err];
  const seen = new Set<unknown>();
  while (queue.length && seen.size < 20) {
    const node = queue.shift();
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (matches(record)) return true;
    const meta = record.meta as Record<string, unknown> | undefined;
    queue.push(record.cause, meta, meta?.driverAdapterError);
  }
  return false;
}
