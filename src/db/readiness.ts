import type { Sql } from './client.ts';
import { MIGRATIONS_TABLE } from './migrate.ts';

/** PostgreSQL's "undefined_table": a database no migration ever ran on. */
const UNDEFINED_TABLE = '42P01';

/** The shipped migrations the database has not applied; all of them when it has no migrations table. */
export async function missingMigrations(sql: Sql, shipped: readonly string[]): Promise<string[]> {
  try {
    const rows = await sql<{ name: string }[]>`SELECT name FROM ${sql(MIGRATIONS_TABLE)}`;
    const applied = new Set(rows.map((row) => row.name));
    return shipped.filter((name) => !applied.has(name));
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return [...shipped];
    throw error;
  }
}

/**
 * The shipped migrations the database lacks, or a rejection when it does not answer within
 * `timeoutMs`: a database that hangs (a network partition, a stopped VM) must not make the
 * readiness probe hang too. The abandoned query ends when its connection does.
 */
export async function missingMigrationsWithin(sql: Sql, shipped: readonly string[], timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`the database did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
  });
  try {
    return await Promise.race([missingMigrations(sql, shipped), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
