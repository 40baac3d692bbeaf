import path from 'node:path';
import { runner } from 'node-pg-migrate';
import { projectRoot } from '../config.ts';

/** Applies the versioned SQL migrations in `migrations/` that the database has not seen yet. */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  await runner({
    databaseUrl,
    dir: path.join(projectRoot, 'migrations'),
    direction: 'up',
    migrationsTable: 'schema_migrations',
    singleTransaction: true,
    checkOrder: true,
    log,
    logger: { debug: () => {}, info: log, warn: log, error: log },
  });
}
