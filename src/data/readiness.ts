import type { Sql } from './client.ts';
import { isUndefinedTable } from './errors.ts';
import { MIGRATIONS_TABLE, migrationNumber } from './migrate.ts';
import { WRITABLE } from './primary.ts';

/**
 * The shipped migrations (folder names, see shippedMigrations) the database has not applied, by
 * the number recorded for each; all of them when it has no migrations table.
 */
export async function missingMigrations(sql: Sql, shipped: readonly string[]): Promise<string[]> {
  try {
    const rows = await sql<{ migration_id: number }[]>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`;
    const applied = new Set(rows.map((row) => row.migration_id));
    return shipped.filter((name) => !applied.has(migrationNumber(name)));
  } catch (error) {
    // No migrations table: a database no migration ever ran on.
    if (isUndefinedTable(error)) return [...shipped];
    throw error;
  }
}

/**
 * Rejects when the server that answers takes no writes (a standby, or one being promoted): through
 * a pooler that has not yet followed a fail-over, the database answers reads but takes no debit
 * (docs/product-rules.md R20.7).
 */
async function assertPrimary(sql: Sql): Promise<void> {
  const [{ writable }] = await sql.unsafe<{ writable: boolean }[]>(`SELECT ${WRITABLE} AS writable`);
  if (!writable) throw Object.assign(new Error('the database answers read-only: no primary'), { code: 'NO_PRIMARY' });
}

/**
 * The shipped migrations the database lacks, or a rejection when it is a standby or does not answer
 * within `timeoutMs`: a database that hangs (a network partition, a stopped VM) must not make the
 * readiness probe hang too. The abandoned query ends when its connection does.
 */
export async function missingMigrationsWithin(
  sql: Sql,
  shipped: readonly string[],
  timeoutMs: number,
): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(Object.assign(new Error(`the database did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
  });
  try {
    const [missing] = await Promise.race([
      Promise.all([missingMigrations(sql, shipped), assertPrimary(sql)]),
      deadline,
    ]);
    return missing;
  } finally {
    clearTimeout(timer);
  }
}
