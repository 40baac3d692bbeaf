import type net from 'node:net';
import type postgres from 'postgres';

/**
 * How much of its connection pool the service uses, for /metrics. postgres.js keeps its pool
 * state private, so the service counts for itself: the sockets its socket factory opened (see
 * client.ts), and the work handed to the pool (a query or a transaction) that has not settled,
 * whether it waits for a connection or runs. More work in flight than the pool's size means calls
 * queue for a connection.
 */
export interface PoolUse {
  /** The most connections the pool opens. */
  readonly size: number;
  openConnections(): number;
  queriesInFlight(): number;
}

// biome-ignore lint/suspicious/noExplicitAny: any pool, whatever its custom types
type AnySql = postgres.Sql<any>;
type Call = (...args: unknown[]) => unknown;

const usage = new WeakMap<AnySql, PoolUse>();

/** The pool use of a pool made by `connect()`. */
export function poolUse(sql: AnySql): PoolUse | undefined {
  return usage.get(sql);
}

/** The sockets of one pool that are still open. */
export class OpenSockets {
  private readonly sockets = new Set<net.Socket>();

  add(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  count(): number {
    // A TLS upgrade removes the socket's listeners, so a closed socket is also recognised here.
    for (const socket of this.sockets) if (socket.destroyed) this.sockets.delete(socket);
    return this.sockets.size;
  }
}

/**
 * The pool, counting the work in flight. Every query postgres.js runs passes once through its
 * `handler`, whatever starts it (await, `.execute()`, `.forEach()`), and a fragment embedded in
 * another query never does; so the count starts there and ends when the query's promise settles.
 * A transaction (`begin`) counts as one piece of work for as long as it holds its connection.
 * Reserved connections (`reserve`, used by the ingest command only) are not counted.
 *
 * With a `deadlineMs`, a query still unsettled that long after it started fails with `ETIMEDOUT`
 * (an outcome-unknown code, src/data/errors.ts) and is cancelled on the server: postgres.js can
 * strand a query whose connection the server terminated mid-statement, so that it never settles
 * (porsager/postgres #1195, #1199), and a caller must never wait on one for ever.
 */
interface StrandableQuery extends Promise<unknown> {
  reject(error: Error): void;
  cancel(): void;
}

function failAfter(query: StrandableQuery, deadlineMs: number): void {
  const timer = setTimeout(() => {
    query.cancel();
    query.reject(
      Object.assign(new Error(`the database did not answer within ${deadlineMs} ms`), { code: 'ETIMEDOUT' }),
    );
  }, deadlineMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  Promise.prototype.then.call(query, done, done);
}

export function withPoolUse<T extends AnySql>(sql: T, sockets: OpenSockets, deadlineMs?: number): T {
  let inFlight = 0;
  const settle = () => {
    inFlight--;
  };
  const track = (result: unknown) => {
    const query = result as { handler?: (query: unknown) => unknown } | null;
    if (!(query instanceof Promise) || typeof query.handler !== 'function') return result;
    const run = query.handler;
    query.handler = (self: unknown) => {
      inFlight++;
      // The native `then`: postgres.js's own would start the query again.
      Promise.prototype.then.call(self, settle, settle);
      if (deadlineMs !== undefined) failAfter(self as StrandableQuery, deadlineMs);
      return run(self);
    };
    return result;
  };
  const counted = new Proxy(sql, {
    apply: (target, thisArg, args) => track(Reflect.apply(target, thisArg, args)),
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'unsafe') return (...args: unknown[]) => track((value as Call)(...args));
      if (property === 'begin') {
        return (...args: unknown[]) => {
          inFlight++;
          const transaction = (value as Call)(...args) as Promise<unknown>;
          transaction.then(settle, settle);
          return transaction;
        };
      }
      return value;
    },
  });
  usage.set(counted, {
    size: sql.options.max,
    openConnections: () => sockets.count(),
    queriesInFlight: () => inFlight,
  });
  return counted;
}
