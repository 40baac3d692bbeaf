import path from 'node:path';
import postgres from 'postgres';
import { projectRoot } from '../../src/config.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { startEmbeddedPostgres } from '../../src/data/embedded.ts';
import { migrate } from '../../src/data/migrate.ts';
import { withDatabase } from '../../test/support/global-setup.ts';
import { freePort } from '../../test/support/service.ts';

/** The benchmark's own embedded cluster (git-ignored with the rest of .data/). */
export const BENCH_CLUSTER_DIR = path.join(projectRoot, '.data', 'bench', 'postgres');

export interface BenchServer {
  /** Where the databases live, for the log. */
  description: string;
  /** URL of one database on this server. */
  urlOf(database: string): string;
  /** Stops the embedded server when this run started it. */
  close(): Promise<void>;
}

/**
 * The PostgreSQL server the benchmark uses: the server of DATABASE_URL when it is set (the
 * benchmark creates its own databases there), else the embedded PostgreSQL on its own cluster
 * under .data/bench, started for the run (or attached to when it already runs).
 */
export async function openBenchServer(
  databaseUrl: string | undefined,
  log: (line: string) => void,
): Promise<BenchServer> {
  if (databaseUrl) {
    const base = new URL(databaseUrl);
    return {
      description: `PostgreSQL at ${base.host} (DATABASE_URL)`,
      urlOf: (database) => withDatabase(databaseUrl, database),
      close: async () => {},
    };
  }
  const port = await freePort();
  log(`Starting the benchmark's embedded PostgreSQL in ${path.relative(projectRoot, BENCH_CLUSTER_DIR)}`);
  const embedded = await startEmbeddedPostgres(BENCH_CLUSTER_DIR, port, () => {});
  return {
    description:
      `embedded PostgreSQL in ${path.relative(projectRoot, BENCH_CLUSTER_DIR)} ` +
      `(port ${new URL(embedded.url).port})`,
    urlOf: (database) => withDatabase(embedded.url, database),
    close: () => embedded.stop(),
  };
}

/** One database per dataset size, so a 1M and a 20M dataset can both stay loaded. */
export function databaseName(observations: number): string {
  return `alk_bench_${observations}`;
}

/** Creates the database when it does not exist, and applies pending migrations. */
export async function ensureDatabase(server: BenchServer, name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (!existing)
      await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  const url = server.urlOf(name);
  await migrate(url);
  return url;
}

export function openPool(url: string, size: number): Sql {
  return connect(url, size);
}
