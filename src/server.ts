import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { createApp, type ExtraOperation } from './app.ts';
import type { Config } from './config.ts';
import { connect, type Sql } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import type { Logger } from './logger.ts';
import { createHttpServer } from './http-server.ts';

export interface RunningService {
  url: string;
  sql: Sql;
  close(): Promise<void>;
}

export interface StartOptions {
  log: (line: string) => void;
  /** Runs after migrations, before the port opens (the demo data and account). */
  prepare?: (sql: Sql) => Promise<void>;
  /** The structured log the app writes a line per request to. */
  logger?: Logger;
  /** Served beside the contract (the benchmark's framework floor); the service passes none. */
  extraOperations?: readonly ExtraOperation[];
}

/**
 * Starts the database (the embedded server unless DATABASE_URL is set), applies pending
 * migrations, prepares, and listens.
 */
export async function startService(config: Config, { log, prepare, logger, extraOperations }: StartOptions): Promise<RunningService> {
  let embedded: EmbeddedServer | undefined;
  let databaseUrl = config.databaseUrl;
  if (databaseUrl === undefined) {
    log(`Starting the embedded PostgreSQL in ${config.embeddedDataDir} (port ${config.embeddedPort})`);
    embedded = await startEmbeddedPostgres(config.embeddedDataDir, config.embeddedPort);
    databaseUrl = embedded.url;
  }
  const sql = connect(databaseUrl, config.poolSize);
  let server: ServerType | undefined;
  const close = async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  };
  try {
    await migrate(databaseUrl);
    await prepare?.(sql);
    const app = createApp({
      sql,
      logger,
      readinessTimeoutMs: config.readinessTimeoutMs,
      rateLimit: { requests: config.rateLimitPerMinute, windowSeconds: 60 },
      limits: config.http,
      unauthorizedFloorMs: config.unauthorizedFloorMs,
      extraOperations,
    });
    const port = await new Promise<number>((resolve, reject) => {
      const http = createHttpServer(app.fetch, config.http, config.host);
      server = http;
      http.once('error', reject);
      http.listen(config.port, config.host, () => resolve((http.address() as AddressInfo).port));
    });
    return { url: `http://${config.host}:${port}`, sql, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
