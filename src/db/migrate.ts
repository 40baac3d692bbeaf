import fs from 'node:fs';
import path from 'node:path';
import { runner } from 'node-pg-migrate';
import { projectRoot } from '../config.ts';

const MIGRATIONS_DIR = path.join(projectRoot, 'migrations');
/** Where node-pg-migrate records each applied migration, by file name without its extension. */
export const MIGRATIONS_TABLE = 'schema_migrations';

/** Applies the versioned SQL migrations in `migrations/` that the database has not seen yet. */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: MIGRATIONS_TABLE,
    singleTransaction: true,
    checkOrder: true,
    log,
    logger: { debug: () => {}, info: log, warn: log, error: log },
  });
}

/** The migrations this version of the service ships, named as the migrations table records them. */
export function shippedMigrations(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => path.parse(entry.name).name)
    .sort();
}
