/**
 * The one module that knows the error codes the database path throws: PostgreSQL's SQLSTATEs
 * (a `PostgresError`'s `code`, https://www.postgresql.org/docs/current/errcodes-appendix.html),
 * postgres.js's own codes for a connection it lost or could not open (`CONNECTION_CLOSED`, …)
 * and Node's socket codes (`ECONNRESET`, …). Everything else asks these functions.
 */

/** The `code` an error carries when it is a string (a SQLSTATE, a client or socket code); else undefined. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * PostgreSQL conditions that mean "the database is not there right now", not "the query is
 * wrong": the server shuts down or restarts (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now), has no connection slot left (53300 too_many_connections), the connection
 * failed (class 08), or the statement ran past the statement timeout (57014 query_canceled:
 * the database is too slow to answer now). During a fail-over (docs/product-rules.md R20.2): a
 * server that is now a standby refuses the write (25006 read_only_sql_transaction), and pgbouncer
 * reports its lost or unreachable server as a protocol violation (08P01).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '25006',
  '08P01',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57014',
]);

/**
 * The same, seen by the client: the server refused or dropped the connection or did not answer
 * in time (Node's socket codes), or postgres.js lost it or could not open it in time.
 */
const UNAVAILABLE_CLIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'MALFORMED_RESULT',
  // data/primary.ts: none of DATABASE_URL's servers is a primary now.
  'NO_PRIMARY',
  // Node: a write to a socket that was already closed (the server went away meanwhile).
  'ERR_SOCKET_CLOSED',
]);

/**
 * A statement that failed with one of these may still have committed: it was sent and its answer
 * lost with the connection (client codes), or the server went away while running it (SQLSTATEs).
 * Not among them: a connection that was never opened (ECONNREFUSED, CONNECT_TIMEOUT) or was
 * ended on purpose before the statement was sent (CONNECTION_ENDED), and a statement the server
 * refused or cancelled (57014 rolls it back).
 */
const OUTCOME_UNKNOWN_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '08003',
  '08006',
  '08007',
  // pgbouncer's "server conn crashed?": its server went away while running the statement.
  '08P01',
  'ERR_SOCKET_CLOSED',
  'MALFORMED_RESULT',
]);

/** The database is away for the moment (a restart, a fail-over, a network cut): the caller gets a 503, not a 500. */
export function isUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  if (code === undefined) return isDriverFault(error);
  return UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_CLIENT_CODES.has(code);
}

/**
 * A fault inside postgres.js itself (a TypeError thrown by its connection code, such as writing
 * to a connection it already dropped: porsager/postgres #1199) while connections are being
 * terminated: the database path failed, not the request, and whether the statement ran is unknown.
 */
export function isDriverFault(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    typeof error.stack === 'string' &&
    /[\\/]node_modules[\\/]postgres[\\/]src[\\/]/.test(error.stack)
  );
}

/**
 * postgres.js answered a statement with entries that are not its rows (seen once as `undefined`
 * rows from the debit while connections were being terminated under load): the answer cannot be
 * used, and whether the statement committed is unknown, like a connection lost mid-answer.
 */
export class MalformedResult extends Error {
  override name = 'MalformedResult';
  readonly code = 'MALFORMED_RESULT';
}

/** The statement may or may not have committed; billing must settle it later instead of assuming either. */
export function isOutcomeUnknown(error: unknown): boolean {
  const code = errorCode(error);
  if (code === undefined) return isDriverFault(error);
  return OUTCOME_UNKNOWN_CODES.has(code);
}

/**
 * A hot standby cancelled the statement because it conflicts with the WAL it replays (40001, or
 * 57P04 when the database was dropped there): the replica cannot answer it now, the primary can.
 */
export function isRecoveryConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code === '40001' || code === '57P04';
}

/** 23505 unique_violation: another transaction wrote the same key first (a race lost, not a fault). */
export function isUniqueViolation(error: unknown): boolean {
  return errorCode(error) === '23505';
}

/** 42P01 undefined_table: the table does not exist, as in a database no migration ever ran on. */
export function isUndefinedTable(error: unknown): boolean {
  return errorCode(error) === '42P01';
}
