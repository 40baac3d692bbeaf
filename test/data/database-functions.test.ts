import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedFunctions } from '../../src/data/database-functions.ts';
import { migrate } from '../../src/data/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('SQL functions kept as files', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  /** The public schema's own functions (not pg_trgm's), each with its definition. */
  async function functions(): Promise<{ signature: string; definition: string }[]> {
    return db.sql<{ signature: string; definition: string }[]>`
      SELECT p.oid::regprocedure::text AS signature, pg_get_functiondef(p.oid) AS definition FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1`;
  }

  /** Every trigger on a table of the live or the sandbox schema, with the function it runs. */
  async function triggers(): Promise<{ table: string; trigger: string; function: string }[]> {
    return db.sql<{ table: string; trigger: string; function: string }[]>`
      SELECT t.tgrelid::regclass::text AS table, t.tgname AS trigger, t.tgfoid::regproc::text AS function
      FROM pg_trigger t WHERE NOT t.tgisinternal ORDER BY 1, 2`;
  }

  async function applying(): Promise<string[]> {
    const log: string[] = [];
    await migrate(db.url, (line) => log.push(line));
    return log.filter((line) => line.startsWith('Applying'));
  }

  it('every function and trigger of the schema is defined by one file of db/functions, applied once', async () => {
    const names = shippedFunctions().map((file) => file.replace(/\.sql$/, ''));
    expect((await functions()).map(({ signature }) => signature.replace(/\(.*$/, ''))).toEqual(names);
    for (const { function: name } of await triggers()) expect(names).toContain(name);
    expect((await triggers()).map(({ table, trigger }) => `${table} ${trigger}`)).toEqual([
      'advertiser_names advertiser_name_tokens_on_delete',
      'advertiser_names advertiser_name_tokens_on_insert',
      'advertiser_names advertiser_name_tokens_on_update',
      'identifiers advertiser_names_on_rename',
      'landing_domain_stats landing_domain_stems_on_insert',
      'sandbox.advertiser_names advertiser_name_tokens_on_delete',
      'sandbox.advertiser_names advertiser_name_tokens_on_insert',
      'sandbox.advertiser_names advertiser_name_tokens_on_update',
      'sandbox.identifiers advertiser_names_on_rename',
      'sandbox.landing_domain_stats landing_domain_stems_on_insert',
    ]);
    const recorded = await db.sql`SELECT file FROM database_functions ORDER BY file`;
    expect(recorded.map((row) => row.file)).toEqual(shippedFunctions());
    // A start with nothing changed applies nothing.
    expect(await applying()).toEqual([]);
  });

  it('a function file changed since it was applied is applied again at the next start, and only it', async () => {
    const before = { functions: await functions(), triggers: await triggers() };
    // Definitions as an older release left them, recorded with that release's checksums.
    await db.sql`CREATE OR REPLACE FUNCTION take_attempt(p_scope text, p_subject bytea, p_window_seconds integer)
      RETURNS TABLE (used integer, reset_ms integer) LANGUAGE sql AS $$ SELECT 0, 0 $$`;
    await db.sql`CREATE OR REPLACE FUNCTION advertiser_names_follow_rename() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`;
    await db.sql`UPDATE database_functions SET checksum = 'older'
      WHERE file IN ('take_attempt.sql', 'advertiser_names_follow_rename.sql')`;

    expect(await applying()).toEqual([
      'Applying function advertiser_names_follow_rename (db/functions/advertiser_names_follow_rename.sql)',
      'Applying function take_attempt (db/functions/take_attempt.sql)',
    ]);
    expect({ functions: await functions(), triggers: await triggers() }).toEqual(before);
    expect(await applying()).toEqual([]);
  });

  it('a function whose signature changed (its arguments or its result) leaves no older signature behind', async () => {
    const before = await functions();
    // An older result: CREATE OR REPLACE cannot change it, so the file's function is dropped first.
    await db.sql`DROP FUNCTION debit_credits(jsonb)`;
    await db.sql`CREATE FUNCTION debit_credits(p_calls jsonb) RETURNS TABLE (nth integer)
      LANGUAGE sql AS $$ SELECT 1 $$`;
    // Older arguments: another function of the same name.
    await db.sql`CREATE FUNCTION similar_landing_domains(q text) RETURNS SETOF text
      LANGUAGE sql AS $$ SELECT q $$`;
    await db.sql`UPDATE database_functions SET checksum = 'older'
      WHERE file IN ('debit_credits.sql', 'similar_landing_domains.sql')`;

    expect(await applying()).toEqual([
      'Applying function debit_credits (db/functions/debit_credits.sql)',
      'Applying function similar_landing_domains (db/functions/similar_landing_domains.sql)',
    ]);
    expect(await functions()).toEqual(before);
  });
});
