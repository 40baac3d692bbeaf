import net from 'node:net';
import postgres from 'postgres';
import { OpenSockets, withPoolUse } from './pool-use.ts';
import { followsPrimary, PrimaryFinder } from './primary.ts';

// biome-ignore lint/complexity/noBannedTypes: postgres.js's own spelling of "no custom types"
export type Sql = postgres.Sql<{}>;

export interface ConnectOptions {
  /** Opening a connection fails after this long (postgres.js waits 30 s by default). */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement that runs longer (SQLSTATE 57014); 0 or absent: no limit. */
  statementTimeoutMs?: number;
  /**
   * Look up array types on each new connection, so `int[]` results parse to arrays (ingest needs
   * it). postgres.js runs that lookup without handling its failure: a connection killed or
   * cancelled during it ends the whole process with an unhandled rejection (porsager/postgres
   * #1192, #1223). The service's request pool reads no arrays and turns it off.
   */
  fetchArrayTypes?: boolean;
  /** The schemas unqualified names resolve in, from the first statement (a startup parameter). */
  searchPath?: string;
  /** Called with the text of every statement sent to the server (each one is a round trip). */
  onStatement?: (statement: string) => void;
}

/**
 * After a failed connection attempt postgres.js waits before the next one, growing to 20 s by
 * default; a queued query waits that long, and each connection takes only one queued query per
 * attempt, so callers would hang while the database is down and long after it is back. A fixed
 * short pause keeps both quick: attempts are made only for queued queries, so they never outnumber
 * the calls that asked for them.
 */
const RECONNECT_PAUSE_SECONDS = 0.01;

/**
 * One pool per process. `bigint` (ids, balances, `count(*)`) is parsed to a JS number: every
 * value this service counts stays far below 2^53. The pool counts its own use (pool-use.ts).
 */
/** How long past the statement timeout a query that has not settled counts as stranded. */
const STRANDED_AFTER_TIMEOUT_MS = 2_000;

export function connect(
  url: string,
  max = 10,
  { connectTimeoutMs, statementTimeoutMs, fetchArrayTypes = true, onStatement, searchPath }: ConnectOptions = {},
): Sql {
  const sockets = new OpenSockets();
  const { url: serverUrl, socket } = databaseSocket(url);
  const sql = postgres(serverUrl, {
    max,
    fetch_types: fetchArrayTypes,
    backoff: () => RECONNECT_PAUSE_SECONDS,
    ...(connectTimeoutMs !== undefined && { connect_timeout: connectTimeoutMs / 1000 }),
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
    connection: {
      application_name: 'advertiser-lookup-api',
      // Every statement here is short: compiling one with JIT, which the planner's estimate of a
      // did-you-mean can trigger, takes longer (tens of ms) than running it.
      jit: 'off',
      // A startup parameter, so every connection of the pool has it from its first statement.
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
      ...(searchPath ? { search_path: searchPath } : {}),
    },
    // Not in postgres.js's option types, but supported: it connects through this socket.
    // biome-ignore lint/complexity/noBannedTypes: an option postgres.js's types do not list
    ...({ socket: async (options: SocketOptions) => sockets.add(noDelay(await socket(options))) } as {}),
  });
  // The server cancels a statement at its timeout; past that and a margin, the query is stranded.
  return withPoolUse(sql, sockets, statementTimeoutMs ? statementTimeoutMs + STRANDED_AFTER_TIMEOUT_MS : undefined);
}

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * The URL postgres.js gets and the socket factory it connects through. A URL of several servers
 * (or with `target_session_attrs=read-write`) connects to the one the PrimaryFinder finds
 * (data/primary.ts, docs/product-rules.md R20.1); any other to its first host, as postgres.js
 * hands a socket factory no host index and such a URL names one.
 */
export function databaseSocket(url: string): {
  url: string;
  socket: (options: SocketOptions) => Promise<net.Socket>;
} {
  if (!followsPrimary(url))
    return {
      url,
      socket: async (options) =>
        options.path ? net.connect(options.path) : net.connect(options.port[0], options.host[0]),
    };
  const finder = new PrimaryFinder(url);
  return { url: finder.url, socket: () => finder.socket() };
}

/**
 * Nagle's algorithm off, as libpq opens its sockets. Otherwise a short message written right after
 * a long one (the end of a COPY after its data, a query after a COPY) waits for the server's
 * delayed acknowledgement, 40 ms a time.
 */
function noDelay(socket: net.Socket): net.Socket {
  socket.setNoDelay(true);
  return socket;
}
