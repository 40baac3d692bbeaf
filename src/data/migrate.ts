import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import shift from 'postgres-shift';
import { projectRoot } from '../config.ts';
import { rekeyNames } from './search-keys.ts';

/**
 * One folder per migration, `NNNNN_name/index.sql`, numbered 00001, 00002, … without gaps, as
 * postgres-shift wants them. Migrations only go forward: there are no down migrations.
 */
const MIGRATIONS_DIR = path.join(projectRoot, 'migrations');
const MIGRATION_ENTRY = /^[0-9]{5}_/;

/**
 * Where postgres-shift records each applied migration: `migration_id` (the folder's number),
 * `name` (the rest of the folder's name, dashes as spaces) and `created_at`. postgres-shift fixes
 * the name of the table and applies the migrations numbered above the highest recorded one.
 */
export const MIGRATIONS_TABLE = 'migrations';

/**
 * Advisory lock held while migrating (the ingest loads use 7_310_001 to 7_310_003). Advisory
 * locks are per database: the service and a command line, or two test files, starting at once
 * on one database take turns, and the second finds nothing left to apply.
 */
const MIGRATIONS_LOCK = 7_310_000;

/**
 * Applies the versioned SQL migrations in `migrations/` that the database has not seen yet, all
 * of them in one transaction (a failure leaves the database as it was), under MIGRATIONS_LOCK;
 * then keys the advertiser names whose search keys are of another version (data/search-keys.ts),
 * which SQL cannot compute.
 */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  // One connection: the session-level lock and postgres-shift's transaction share it.
  const sql = postgres(databaseUrl, {
    max: 1,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'advertiser-lookup-api migrate' },
  });
  try {
    await sql`SELECT pg_advisory_lock(${MIGRATIONS_LOCK})`;
    await shift({
      sql,
      path: MIGRATIONS_DIR,
      before: ({ migration_id, name }) => log(`Applying migration ${migration_id} (${name})`),
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

/** The number postgres-shift records for a shipped migration (`migration_id`). */
export function migrationNumber(migration: string): number {
  return Number.parseInt(migration.slice(0, 5), 10);
}
