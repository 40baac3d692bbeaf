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
}

/** Generous: ten calls a second, sustained, for every key; a client within it never sees 429. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

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
  };
}
