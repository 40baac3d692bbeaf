import net from 'node:net';
import postgres from 'postgres';
import { OpenSockets, withPoolUse } from './pool-use.ts';

export type Sql = postgres.Sql<{}>;

export interface ConnectOptions {
  /** Called with the text of every statement sent to the server (each one is a round trip). */
  onStatement?: (statement: string) => void;
}

/**
 * One pool per process. `bigint` (ids, balances, `count(*)`) is parsed to a JS number: every
 * value this service counts stays far below 2^53. The pool counts its own use (pool-use.ts).
 */
export function connect(url: string, max = 10, { onStatement }: ConnectOptions = {}): Sql {
  const sockets = new OpenSockets();
  const sql = postgres(url, {
    max,
    onnotice: () => {},
    ...(onStatement ? { debug: (_connection: number, statement: string) => onStatement(statement) } : {}),
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    connection: { application_name: 'advertiser-lookup-api' },
    // Not in postgres.js's option types, but supported: it connects through this socket.
    ...({ socket: (options: SocketOptions) => sockets.add(noDelaySocket(options)) } as {}),
  });
  return withPoolUse(sql, sockets);
}

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * A socket with Nagle's algorithm off, as libpq opens them. Otherwise a short message written
 * right after a long one (the end of a COPY after its data, a query after a COPY) waits for the
 * server's delayed acknowledgement, 40 ms a time. The first host of the URL only: postgres.js
 * hands a socket factory no host index, and this service names one host.
 */
function noDelaySocket(options: SocketOptions): net.Socket {
  const socket = options.path ? net.connect(options.path) : net.connect(options.port[0], options.host[0]);
  socket.setNoDelay(true);
  return socket;
}
