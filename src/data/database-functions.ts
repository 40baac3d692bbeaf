import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type postgres from 'postgres';
import { projectRoot } from '../config.ts';

/**
 * The SQL functions and triggers the service calls, each kept in one file,
 * `db/functions/<function>.sql`: the function of the file's name and the triggers that run it.
 * The versioned migrations keep their history (every earlier definition); the current one lives
 * only in its file.
 */
export const FUNCTIONS_DIR = path.join(projectRoot, 'db', 'functions');

/** Where the checksum of each function file last applied is recorded. */
export const FUNCTIONS_TABLE = 'database_functions';

/** The function files, in the order they are applied: by file name. */
export function shippedFunctions(): string[] {
  return fs
    .readdirSync(FUNCTIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort();
}

/**
 * Applies the function files whose checksum differs from the one recorded, in file-name order,
 * in the caller's transaction (after the versioned migrations, under their lock). Each file
 * stands alone: bodies are checked when called, not when created (as a restore of pg_dump does), so
 * a function may call one whose file comes later.
 *
 * A function's signature may change from one version of its file to the next (its arguments or
 * its result): every function of the file's name is dropped first, so none of an older signature
 * is left behind, and the file creates it again. Trigger functions are replaced in place instead
 * (their triggers depend on them and their signature never changes): the files use CREATE OR
 * REPLACE for functions and triggers alike. A drop that something else depends on fails the
 * migration rather than taking that with it.
 */
export async function applyFunctions(tx: postgres.TransactionSql, log: (line: string) => void): Promise<void> {
  await tx`
    CREATE TABLE IF NOT EXISTS ${tx(FUNCTIONS_TABLE)} (
      file       text PRIMARY KEY,
      checksum   text NOT NULL,
      applied_at timestamp with time zone NOT NULL DEFAULT now()
    )`;
  await tx`SET LOCAL check_function_bodies = off`;
  const recorded = new Map(
    (await tx<{ file: string; checksum: string }[]>`SELECT file, checksum FROM ${tx(FUNCTIONS_TABLE)}`).map((row) => [
      row.file,
      row.checksum,
    ]),
  );
  for (const file of shippedFunctions()) {
    const text = fs.readFileSync(path.join(FUNCTIONS_DIR, file), 'utf8');
    const checksum = createHash('sha256').update(text).digest('hex');
    if (recorded.get(file) === checksum) continue;
    const name = file.slice(0, -'.sql'.length);
    log(`Applying function ${name} (db/functions/${file})`);
    const overloads = await tx<{ signature: string }[]>`
      SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace AND p.proname = ${name}
        AND p.prorettype <> 'trigger'::regtype`;
    for (const { signature } of overloads) await tx.unsafe(`DROP FUNCTION ${signature}`);
    await tx.unsafe(text);
    await tx`
      INSERT INTO ${tx(FUNCTIONS_TABLE)} (file, checksum) VALUES (${file}, ${checksum})
      ON CONFLICT (file) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`;
  }
}
