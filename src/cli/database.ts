import { loadConfig } from '../config.ts';
import { connect, type Sql } from '../data/client.ts';
import { startEmbeddedPostgres } from '../data/embedded.ts';
import { migrate } from '../data/migrate.ts';

export interface OpenDatabase {
  sql: Sql;
  url: string;
  close(): Promise<void>;
}

/**
 * The database the service uses, for the operator command lines: DATABASE_URL when set, else the
 * embedded server on the project's data folder, attached to when the service already runs it and
 * started (and stopped again afterwards) when it does not. Pending migrations are applied first.
 */
export async function openDatabase(): Promise<OpenDatabase> {
  const config = loadConfig();
  const embedded =
    config.databaseUrl === undefined
      ? await startEmbeddedPostgres(config.embeddedDataDir, config.embeddedPort)
      : undefined;
  const url = config.databaseUrl ?? embedded!.url;
  try {
    await migrate(url);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const sql = connect(url, 4);
  return {
    sql,
    url,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}
