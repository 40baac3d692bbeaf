import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { projectRoot } from '../config.ts';
import { databaseSocket } from './client.ts';
import { applyFunctions } from './database-functions.ts';
import { rekeyNames } from './search-keys.ts';

/**
 * One folder per migration, `NNNNN_name/index.sql`, numbered 00001, 00002, … without gaps.
 * Migrations only go forward: there are no down migrations. They are the schema's history: the
 * current definition of a function or trigger is its file in db/functions (database-functions.ts).
 */
const MIGRATIONS_DIR = path.join(projectRoot, 'migrations');
const MIGRATION_ENTRY = /^[0-9]{5}_/;

/**
 * Where each applied migration is recorded: `migration_id` (the folder's number), `name` (the rest
 * of the folder's name, dashes as spaces) and `created_at`, as postgres-shift, the runner before,
 * recorded them. The migrations numbered above the highest recorded one are applied.
 */
export const MIGRATIONS_TABLE = 'migrations';

/**
 * Advisory lock held while migrating (the ingest loads use 7_310_001 to 7_310_003). Advisory
 * locks are per database: the service and a command line, or two test files, starting at once
 * on one database take turns, and the second finds nothing left to apply.
 */
const MIGRATIONS_LOCK = 7_310_000;

/**
 * Applies the versioned SQL migrations in `migrations/` that the database has not seen yet, then
 * the function files of db/functions that changed since they were last applied, all in one
 * transaction (a failure leaves the database as it was), under MIGRATIONS_LOCK; then keys the
 * advertiser names whose search keys are of another version (data/search-keys.ts), which SQL
 * cannot compute.
 */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  // One connection: the session-level lock and the transaction share it.
  // Several servers: the primary among them (client.ts, docs/product-rules.md R20.1).
  const { url, socket } = databaseSocket(databaseUrl);
  const sql = postgres(url, {
    max: 1,
    // biome-ignore lint/complexity/noBannedTypes: an option postgres.js's types do not list
    ...({ socket } as {}),
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'advertiser-lookup-api migrate' },
  });
  try {
    await sql`SELECT pg_advisory_lock(${MIGRATIONS_LOCK})`;
    const shipped = shippedMigrations();
    const gap = shipped.findIndex((migration, index) => migrationNumber(migration) !== index + 1);
    if (gap >= 0) throw new Error(`The migrations are not numbered 1, 2, … without gaps at ${shipped[gap]}`);
    await sql.begin(async (tx) => {
      await tx`
        CREATE TABLE IF NOT EXISTS ${tx(MIGRATIONS_TABLE)} (
          migration_id serial PRIMARY KEY,
          created_at   timestamp with time zone NOT NULL DEFAULT now(),
          name         text
        )`;
      const [{ latest }] = await tx<{ latest: number }[]>`
        SELECT coalesce(max(migration_id), 0)::integer AS latest FROM ${tx(MIGRATIONS_TABLE)}`;
      for (const migration of shipped.filter((migration) => migrationNumber(migration) > latest)) {
        const number = migrationNumber(migration);
        const name = migration.slice(6).replace(/-/g, ' ');
        log(`Applying migration ${number} (${name})`);
        await tx.file(path.join(MIGRATIONS_DIR, migration, 'index.sql'));
        await tx`INSERT INTO ${tx(MIGRATIONS_TABLE)} (migration_id, name) VALUES (${number}, ${name})`;
      }
      await applyFunctions(tx, log);
    });
    await rekeyNames(sql, log);
    await sql`SELECT pg_advisory_unlock(${MIGRATIONS_LOCK})`;
  } finally {
    // Ending the session also releases the lock when a migration failed.
    await sql.end({ timeout: 5 });
  }
}

/**
 * The migrations this version of the service ships: their folder names, e.g. `00001_accounts-keys-ledger`, in order.
 */
export function shippedMigrations(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((entry) => MIGRATION_ENTRY.test(entry))
    .sort();
}

/** The number recorded for a shipped migration (`migration_id`). */
export function migrationNumber(migration: string): number {
  return Number.parseInt(migration.slice(0, 5), 10);
}
