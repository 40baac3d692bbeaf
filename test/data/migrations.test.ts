import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { migrate, migrationNumber, shippedMigrations } from '../../src/data/migrate.ts';
import { missingMigrations } from '../../src/data/readiness.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { withDatabase } from '../support/global-setup.ts';

/** A new database with nothing in it, not cloned from the migrated template. */
async function emptyDatabase(): Promise<{ url: string; sql: postgres.Sql; drop(): Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const name = `alk_test_mig_${randomBytes(4).toString('hex')}_${inject('templateDatabase').split('_').pop()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  const url = withDatabase(adminUrl, name);
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  return {
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Every table and column of the public schema but the migration bookkeeping, and every function's definition. */
async function schemaOf(sql: postgres.Sql) {
  const columns = await sql`
    SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name
    FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> 'migrations'
    ORDER BY table_name, column_name`;
  const functions = await sql`
    SELECT p.proname, pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' ORDER BY p.proname`;
  const indexes = await sql`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' AND tablename <> 'migrations'
    ORDER BY indexname`;
  return { columns: [...columns], functions: [...functions], indexes: [...indexes] };
}

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('creates the billing tables', async () => {
    const rows = await db.sql<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'ledger']));
  });

  it('ships one folder of plain SQL per migration, numbered 00001, 00002, … without gaps, forward only', () => {
    const shipped = shippedMigrations();
    expect(shipped.length).toBeGreaterThanOrEqual(6);
    expect(shipped.map(migrationNumber)).toEqual(shipped.map((_, index) => index + 1));
    for (const migration of shipped) {
      expect(fs.readdirSync(path.join(projectRoot, 'migrations', migration))).toEqual(['index.sql']);
      const text = fs.readFileSync(path.join(projectRoot, 'migrations', migration, 'index.sql'), 'utf8');
      expect(text).not.toMatch(/-- (Up|Down) Migration/);
    }
    expect(fs.readdirSync(path.join(projectRoot, 'migrations')).sort()).toEqual(shipped);
  });

  it('records each shipped migration once, as postgres-shift does, and nothing else', async () => {
    const rows = await db.sql<{ migration_id: number; name: string }[]>`
      SELECT migration_id, name FROM migrations ORDER BY migration_id`;
    expect(rows).toEqual(
      shippedMigrations().map((migration) => ({
        migration_id: migrationNumber(migration),
        name: migration.slice(6).replace(/-/g, ' '),
      })),
    );
    expect(await missingMigrations(db.sql, shippedMigrations())).toEqual([]);
  });

  it('concurrent starts on one empty database apply each migration once, and all succeed', async () => {
    const fresh = await emptyDatabase();
    try {
      const logs: string[][] = [[], [], [], []];
      await Promise.all(logs.map((log) => migrate(fresh.url, (line) => log.push(line))));
      const applied = logs.flat().filter((line) => line.startsWith('Applying migration'));
      expect(applied).toHaveLength(shippedMigrations().length);
      // One start applied them all; the others, waiting on the lock, found nothing to do.
      expect(logs.filter((log) => log.length > 0)).toHaveLength(1);
      const rows = await fresh.sql`SELECT migration_id FROM migrations ORDER BY migration_id`;
      expect(rows.map((row) => row.migration_id)).toEqual(shippedMigrations().map(migrationNumber));
      expect(await schemaOf(fresh.sql)).toEqual(await schemaOf(db.sql));
    } finally {
      await fresh.drop();
    }
  });

  it('a failing migration leaves the database as it was, and the lock free', async () => {
    const fresh = await emptyDatabase();
    try {
      // An object the first migration creates, so that migration fails half-way.
      await fresh.sql`CREATE TABLE ledger (id int)`;
      await expect(migrate(fresh.url)).rejects.toThrow(/relation "ledger" already exists/);
      const [{ current, accounts }] =
        await fresh.sql`SELECT to_regclass('migrations') AS current, to_regclass('accounts') AS accounts`;
      expect(accounts).toBeNull();
      expect(current === null || (await fresh.sql`SELECT count(*)::int AS n FROM migrations`)[0].n === 0).toBe(true);
      await fresh.sql`DROP TABLE ledger`;
      await migrate(fresh.url);
      expect(await missingMigrations(fresh.sql, shippedMigrations())).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});
