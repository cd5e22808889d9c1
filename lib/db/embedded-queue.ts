// PGlite has one session, and pglite-socket's own queue hands it from socket to socket message by message,
// keeping it with one socket only inside an explicit transaction. An extended-protocol query is several
// messages (Parse, Bind, Execute, Sync), so two sockets' queries interleaved: one ran on the other's portal
// (`portal "" does not exist`, or the other's rows). This queue keeps the session with the socket that sent
// a message until the session reports itself idle again (ReadyForQuery 'I'), which ends both a query and a
// transaction. It replaces the library's queue with the same interface.
import type { PGlite } from '@electric-sql/pglite';

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
}

// Sync: ends an extended-protocol sequence, and an error state, when a socket leaves in the middle of one.
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;

export class SessionQueue {
  private queue: Pending[] = [];
  private processing = false;
  /** The socket that holds the session: it began a query or transaction that has not ended. */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A socket that leaves while holding the session gives it back clean: its sequence ended, its transaction rolled back. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
    // exec takes the session's lock itself.
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    await this.process();
  }

  private next(): Pending | undefined {
    if (this.owner === null) return this.queue.shift();
    // The holder's next message may not have arrived yet: everyone else waits for it.
    const at = this.queue.findIndex((item) => item.handlerId === this.owner);
    return at === -1 ? undefined : this.queue.splice(at, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        // The last message of a reply is ReadyForQuery ('Z', length 5, status) when the backend waits for a new
        // query; a reply without it (Parse, Bind, Execute) leaves the sequence open.
        let tail: Uint8Array = new Uint8Array(0);
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                tail = lastBytes(tail, data, 6);
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          item.reject(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        this.owner = idleAfter(tail) ? null : item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}

function lastBytes(previous: Uint8Array, data: Uint8Array, count: number): Uint8Array {
  if (data.length >= count) return data.slice(data.length - count);
  const joined = new Uint8Array(previous.length + data.length);
  joined.set(previous);
  joined.set(data, previous.length);
  return joined.slice(Math.max(0, joined.length - count));
}

function idleAfter(tail: Uint8Array): boolean {
  return tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[1] === 0 && tail[2] === 0 && tail[3] === 0 && tail[4] === 5 && tail[5] === IDLE;
}
