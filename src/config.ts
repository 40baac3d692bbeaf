import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, so the service finds its files whatever the working directory. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  /** External PostgreSQL; when absent the embedded server is started. */
  databaseUrl: string | undefined;
  /** Data folder of the embedded server (git-ignored). */
  embeddedDataDir: string;
  embeddedPort: number;
  port: number;
  host: string;
  /** Connections the service keeps open to PostgreSQL. */
  poolSize: number;
  /** Load the synthetic demo dataset when the database holds no observations. */
  loadDemoData: boolean;
  /** Requests one API key may make per minute; 0 turns the rate limit off (benchmarks). */
  rateLimitPerMinute: number;
  /** How long /readyz waits for the database before it answers 503. */
  readinessTimeoutMs: number;
  http: HttpLimits;
  /** Every 401 is answered no sooner than this many milliseconds after the request arrived. */
  unauthorizedFloorMs: number;
  /** How long opening a database connection may take before the call answers 503. */
  connectTimeoutMs: number;
  /** How long one SQL statement may run before PostgreSQL cancels it (the call answers 503); 0: no limit. */
  statementTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests get to finish before their connections are closed. */
  shutdownTimeoutMs: number;
  /** Where refunds that could not reach the database wait, so they survive a restart (git-ignored). */
  pendingRefundsDir: string;
}

/** Generous: ten calls a second, sustained, for every key; a client within it never sees 429. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** Above a key lookup's usual time on a busy machine, so no 401 answers sooner than another. */
export const DEFAULT_UNAUTHORIZED_FLOOR_MS = 10;

/**
 * What one HTTP request may take from the service. The byte limits are generous enough that any
 * parameter up to 10 kB, even fully percent-encoded, reaches the parameter rules and gets their
 * free 400; the timeouts cut off clients that send a request slowly (slowloris) without
 * holding anyone else up.
 */
export interface HttpLimits {
  /** Request line and headers together (Node's `maxHeaderSize`); over it: 431 `headers_too_large`. */
  maxHeaderBytes: number;
  /** The request target (path and query); over it: 414 `uri_too_long`. */
  maxUrlBytes: number;
  /** Time to receive the request line and headers, counted from the connection or the previous request; then 408. */
  headersTimeoutMs: number;
  /** Time to receive the whole request; then 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxHeaderBytes: 64 * 1024,
  maxUrlBytes: 32 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

export function loadConfig(): Config {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    embeddedDataDir: process.env.EMBEDDED_PG_DIR || path.join(projectRoot, '.data', 'postgres'),
    embeddedPort: intFromEnv('EMBEDDED_PG_PORT', 54329),
    port: intFromEnv('PORT', 3000, 0), // 0: any free port
    host: process.env.HOST || '127.0.0.1',
    poolSize: intFromEnv('DB_POOL_SIZE', 10),
    loadDemoData: process.env.DEMO_DATA !== 'off',
    rateLimitPerMinute: process.env.RATE_LIMIT_PER_MINUTE === 'off' ? 0 : intFromEnv('RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT_PER_MINUTE, 0),
    readinessTimeoutMs: intFromEnv('READYZ_TIMEOUT_MS', 2_000),
    http: httpLimitsFromEnv(),
    unauthorizedFloorMs: intFromEnv('UNAUTHORIZED_MIN_RESPONSE_MS', DEFAULT_UNAUTHORIZED_FLOOR_MS, 0),
    connectTimeoutMs: intFromEnv('DB_CONNECT_TIMEOUT_MS', 2_000),
    statementTimeoutMs: intFromEnv('STATEMENT_TIMEOUT_MS', 5_000, 0),
    shutdownTimeoutMs: intFromEnv('SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    pendingRefundsDir: process.env.PENDING_REFUNDS_DIR || path.join(projectRoot, '.data', 'pending-refunds'),
  };
}

function httpLimitsFromEnv(): HttpLimits {
  const limits: HttpLimits = {
    maxHeaderBytes: intFromEnv('HTTP_MAX_HEADER_BYTES', DEFAULT_HTTP_LIMITS.maxHeaderBytes, 1024),
    maxUrlBytes: intFromEnv('HTTP_MAX_URL_BYTES', DEFAULT_HTTP_LIMITS.maxUrlBytes, 256),
    headersTimeoutMs: intFromEnv('HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs, 100),
    requestTimeoutMs: intFromEnv('HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs, 100),
    keepAliveTimeoutMs: intFromEnv('HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs, 100),
  };
  // Node refuses a headers timeout longer than the request timeout; say which variables to fix.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error('HTTP_HEADERS_TIMEOUT_MS must not be larger than HTTP_REQUEST_TIMEOUT_MS');
  }
  // A URL is part of the request line, so a URL limit at or over the header limit could never answer 414.
  if (limits.maxUrlBytes >= limits.maxHeaderBytes) {
    throw new Error('HTTP_MAX_URL_BYTES must be smaller than HTTP_MAX_HEADER_BYTES');
  }
  return limits;
}
