import net from 'node:net';
import postgres from 'postgres';

/**
 * Following the primary when DATABASE_URL names several servers (docs/product-rules.md R20.1), the
 * libpq form `postgres://h1:p1,h2:p2/db?target_session_attrs=read-write`. postgres.js's own
 * multi-host support trusts the startup parameters a server reports (`in_hot_standby`,
 * `default_transaction_read_only`), which a pooler replays from another connection and which
 * read "off" on a PostgreSQL 15 standby too; so the service asks each server itself, with a
 * query (`pg_is_in_recovery()`), and opens its connections to the one that is not in recovery.
 */

/** SQL: whether this server takes writes now (see isPrimary). */
export const WRITABLE = "NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off'";

/** How long a primary found stays trusted before new connections ask again. */
const PRIMARY_TRUSTED_MS = 1_000;

/** A socket to no primary that postgres.js never writes to fails after this long anyway. */
const UNWRITTEN_SOCKET_FAILS_MS = 100;

/** How long a server may take to answer "are you the primary?" before it counts as down. */
const PROBE_TIMEOUT_SECONDS = 2;

export interface DatabaseServer {
  host: string;
  port: number;
}

/** No server of the URL is a primary now (all down, or all standbys during a fail-over): a 503. */
export class NoPrimary extends Error {
  override name = 'NoPrimary';
  readonly code = 'NO_PRIMARY';
}

/** The servers a URL names, in order (`h1:p1,h2:p2`); one for a URL of one host. */
export function databaseServers(url: string): DatabaseServer[] {
  const authority = url.slice(url.indexOf('://') + 3).split(/[/?]/)[0];
  const hosts = decodeURIComponent(authority.slice(authority.lastIndexOf('@') + 1));
  return hosts.split(',').map((entry) => {
    const bracket = entry.startsWith('[') ? entry.indexOf(']') : -1;
    const colon = entry.lastIndexOf(':');
    const host = bracket > 0 ? entry.slice(1, bracket) : colon > 0 ? entry.slice(0, colon) : entry;
    const port = colon > bracket && colon > 0 ? Number(entry.slice(colon + 1)) : 5432;
    return { host: host || 'localhost', port };
  });
}

/**
 * Whether the URL asks for the primary among several servers: more than one host, or a
 * `target_session_attrs` of `read-write` or `primary` (libpq's names for it).
 */
export function followsPrimary(url: string): boolean {
  const attrs = new URL(url.replace(/\/\/[^/?]*/, '//h')).searchParams.get('target_session_attrs');
  return databaseServers(url).length > 1 || attrs === 'read-write' || attrs === 'primary';
}

/**
 * The URL postgres.js gets when the service follows the primary itself: the first server only
 * (the socket factory picks the real one) and no `target_session_attrs`, which the service checks.
 */
export function singleServerUrl(url: string, server: DatabaseServer): string {
  const start = url.indexOf('://') + 3;
  const authority = url.slice(start).split(/[/?]/)[0];
  const at = authority.lastIndexOf('@');
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const rest = url.slice(start + authority.length);
  const parsed = new URL(`x://h${rest}`);
  parsed.searchParams.delete('target_session_attrs');
  const query = parsed.searchParams.size > 0 ? `?${parsed.searchParams}` : '';
  return `${url.slice(0, start)}${authority.slice(0, at + 1)}${host}:${server.port}${parsed.pathname}${query}`;
}

/**
 * Finds the primary among the URL's servers and opens sockets to it. Every server is asked at
 * once; the first that answers "not in recovery" is the primary, trusted for PRIMARY_TRUSTED_MS,
 * after which the next new connection asks again (a pool reconnects after a fail-over, so its new
 * connections find the new primary). None: NoPrimary, which callers see as a 503.
 */
export class PrimaryFinder {
  readonly servers: DatabaseServer[];
  /** The URL for postgres.js: the first server's, without `target_session_attrs`. */
  readonly url: string;
  private found: { server: DatabaseServer; at: number } | undefined;
  private probing: Promise<DatabaseServer> | undefined;

  constructor(private readonly fullUrl: string) {
    this.servers = databaseServers(fullUrl);
    this.url = singleServerUrl(fullUrl, this.servers[0]);
  }

  /** The primary's address, asking the servers when the last answer is too old. */
  async primary(): Promise<DatabaseServer> {
    if (this.found && Date.now() - this.found.at < PRIMARY_TRUSTED_MS) return this.found.server;
    this.probing ??= this.probe().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  /**
   * A socket to the primary (postgres.js's `socket` option). With no primary, a socket that fails
   * with NoPrimary: postgres.js leaves a connection whose socket factory threw stuck for ever (its
   * queries never settle), while a socket that errs takes its ordinary path (fail, reconnect).
   */
  async socket(): Promise<net.Socket> {
    try {
      const server = await this.primary();
      return net.connect(server.port, server.host);
    } catch (error) {
      // It fails when postgres.js first writes to it (its handlers are on by then), so the caller
      // sees NoPrimary rather than a write to a closed socket. Never before that write: postgres.js
      // buffers its startup message and writes it on the next turn of the event loop, and a socket
      // closed in between leaves that message buffered and no write scheduled, so the connection's
      // next socket got no startup message (a connect timeout) and then two (SQLSTATE 08P01).
      const failing = new net.Socket();
      const fail = () => {
        if (!failing.destroyed) failing.destroy(error as Error);
        return false;
      };
      failing.write = fail;
      // Not unref'd: a command line waiting on this connection must not see its event loop empty.
      setTimeout(fail, UNWRITTEN_SOCKET_FAILS_MS);
      return failing;
    }
  }

  private async probe(): Promise<DatabaseServer> {
    const answers = this.servers.map(async (server) => {
      if (!(await isPrimary(singleServerUrl(this.fullUrl, server)))) throw new Error('a standby');
      return server;
    });
    try {
      const server = await Promise.any(answers);
      this.found = { server, at: Date.now() };
      return server;
    } catch {
      this.found = undefined;
      const names = this.servers.map(({ host, port }) => `${host}:${port}`).join(', ');
      throw new NoPrimary(`no primary among ${names}: each is down or a standby`);
    }
  }
}

/**
 * Whether the server takes writes: not in recovery (a standby is) and not read-only (pg_auto_failover
 * keeps a promoted standby read-only until the old primary is known to be demoted), as libpq's
 * `target_session_attrs=read-write` checks; a server that does not answer counts as not.
 */
async function isPrimary(url: string): Promise<boolean> {
  const sql = postgres(url, {
    max: 1,
    fetch_types: false,
    prepare: false,
    connect_timeout: PROBE_TIMEOUT_SECONDS,
    onnotice: () => {},
    connection: { application_name: 'advertiser-lookup-api primary check' },
  });
  try {
    const [row] = await sql.unsafe<{ writable: boolean }[]>(`SELECT ${WRITABLE} AS writable`);
    return row.writable === true;
  } catch {
    return false;
  } finally {
    sql.end({ timeout: 0 }).catch(() => {});
  }
}
