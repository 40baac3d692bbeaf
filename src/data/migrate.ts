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
 * Where node-pg-migrate, the runner before postgres-shift, recorded them: `id`, `name` (the old
 * file name without `.sql`, e.g. `0001_accounts-keys-ledger`) and `run_on`. A database that has
 * it and no MIGRATIONS_TABLE is adopted (see adoptNodePgMigrateHistory); it is left in place.
 */
export const LEGACY_MIGRATIONS_TABLE = 'schema_migrations';

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
  // One connection: the session-level lock, the adoption and postgres-shift's transaction share it.
  const sql = postgres(databaseUrl, {
    max: 1,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'advertiser-lookup-api migrate' },
  });
  try {
    await sql`SELECT pg_advisory_lock(${MIGRATIONS_LOCK})`;
    await adoptNodePgMigrateHistory(sql, log);
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

/**
 * A database migrated by node-pg-migrate (a LEGACY_MIGRATIONS_TABLE and no MIGRATIONS_TABLE): the
 * migrations recorded there are recorded in MIGRATIONS_TABLE as postgres-shift would have, so it
 * applies only the newer ones. Old names map by number and name: `0003_debit-credits` is
 * `00003_debit-credits`. A recorded migration this release does not ship, or a gap, stops the
 * start rather than guessing. One transaction: either the whole history is adopted or none.
 */
async function adoptNodePgMigrateHistory(sql: postgres.Sql, log: (line: string) => void): Promise<void> {
  const [{ current, legacy }] = await sql<{ current: string | null; legacy: string | null }[]>`
    SELECT to_regclass(${MIGRATIONS_TABLE}) AS current, to_regclass(${LEGACY_MIGRATIONS_TABLE}) AS legacy`;
  if (current !== null || legacy === null) return;

  const shipped = new Map(shippedMigrations().map((migration) => [migrationNumber(migration), migration]));
  // run_on is a timestamp without time zone: as text, the server reads it back as it casts one.
  const recorded = await sql<{ name: string; run_on: string }[]>`
    SELECT name, run_on::text AS run_on FROM ${sql(LEGACY_MIGRATIONS_TABLE)} ORDER BY id`;
  const adopted = recorded.map(({ name, run_on }, index) => {
    const match = /^([0-9]+)_(.+)$/.exec(name);
    const number = match ? Number.parseInt(match[1], 10) : NaN;
    const migration = shipped.get(number);
    if (!match || migration === undefined || migration.slice(6) !== match[2]) {
      throw new Error(`${LEGACY_MIGRATIONS_TABLE} records the migration ${name}, which this release does not ship`);
    }
    if (number !== index + 1) {
      throw new Error(
        `${LEGACY_MIGRATIONS_TABLE} records ${name} as applied migration ` +
          `number ${index + 1}: its migrations are not applied in order`,
      );
    }
    // As postgres-shift records a migration: its number, and its name with spaces for dashes.
    return { migration_id: number, name: migration.slice(6).replace(/-/g, ' '), created_at: run_on };
  });

  await sql.begin(async (tx) => {
    // The table exactly as postgres-shift creates it.
    await tx`
      CREATE TABLE ${tx(MIGRATIONS_TABLE)} (
        migration_id serial PRIMARY KEY,
        created_at   timestamp with time zone NOT NULL DEFAULT now(),
        name         text
      )`;
    if (adopted.length > 0) await tx`INSERT INTO ${tx(MIGRATIONS_TABLE)} ${tx(adopted)}`;
  });
  log(`Adopted ${adopted.length} migrations applied by node-pg-migrate (${LEGACY_MIGRATIONS_TABLE})`);
}
