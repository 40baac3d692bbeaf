import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp, type ExtraOperation } from './app.ts';
import type { Config } from './config.ts';
import { connect, type Sql } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';

export interface RunningService {
  url: string;
  sql: Sql;
  close(): Promise<void>;
}

export interface StartOptions {
  log: (line: string) => void;
  /** Runs after migrations, before the port opens (the demo data and account). */
  prepare?: (sql: Sql) => Promise<void>;
  /** Served beside the contract (the benchmark's framework floor); the service passes none. */
  extraOperations?: readonly ExtraOperation[];
}

/**
 * Starts the database (the embedded server unless DATABASE_URL is set), applies pending
 * migrations, prepares, and listens.
 */
export async function startService(config: Config, { log, prepare, extraOperations }: StartOptions): Promise<RunningService> {
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
    const app = createApp({ sql, extraOperations });
    const port = await new Promise<number>((resolve, reject) => {
      server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => resolve(info.port));
      server.once('error', reject);
    });
    return { url: `http://${config.host}:${port}`, sql, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
