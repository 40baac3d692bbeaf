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
  /** How long opening a database connection may take before the call answers 503. */
  connectTimeoutMs: number;
  /** How long one SQL statement may run before PostgreSQL cancels it (the call answers 503); 0: no limit. */
  statementTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests get to finish before their connections are closed. */
  shutdownTimeoutMs: number;
  /** Where refunds that could not reach the database wait, so they survive a restart (git-ignored). */
  pendingRefundsDir: string;
}

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
    connectTimeoutMs: intFromEnv('DB_CONNECT_TIMEOUT_MS', 2_000),
    statementTimeoutMs: intFromEnv('STATEMENT_TIMEOUT_MS', 5_000, 0),
    shutdownTimeoutMs: intFromEnv('SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    pendingRefundsDir: process.env.PENDING_REFUNDS_DIR || path.join(projectRoot, '.data', 'pending-refunds'),
  };
}
