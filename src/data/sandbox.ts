import type { Sql } from './client.ts';

/** The schema of the sandbox's observation tables (migrations/00011_sandbox). */
export const SANDBOX_SCHEMA = 'sandbox';

/** The search_path of a connection that reads and writes the sandbox's tables, with public's functions. */
export const SANDBOX_SEARCH_PATH = `${SANDBOX_SCHEMA}, public`;

/**
 * Runs `read` on the sandbox's tables (docs/product-rules.md §17): in one transaction whose
 * search_path starts with the sandbox's schema, so the lookups' SQL, which names no schema, reads
 * the demo dataset there and never the live tables. Only test keys' calls pay its extra round trips.
 */
export function inSandbox<T>(sql: Sql, read: (sandbox: Sql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL search_path TO ${SANDBOX_SEARCH_PATH}`);
    return read(tx as unknown as Sql);
  }) as Promise<T>;
}
