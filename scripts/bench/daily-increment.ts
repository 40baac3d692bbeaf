/**
 * The daily increment both `bench:ingest --increment-onto N` and `bench:watches` load: into a copy
 * of a base of N observations (built once, kept as `alk_ingest_base_N`), 1,000,000 observations
 * (or N/5 when N is small), a quarter of them new and the rest every k-th record of the base.
 * One home, so the two benchmarks measure the same load on the same base.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { connect } from '../../src/data/client.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { generateDataset, type ObservationRecord } from '../../src/synthetic/generator.ts';
import { take } from '../../src/synthetic/write-files.ts';
import { type BenchServer, ensureDatabase } from './database.ts';

export const INCREMENT_TODAY = new Date('2026-11-25T00:00:00Z');
export const INCREMENT_SEED = 7;

export const incrementOf = (base: number) => Math.min(1_000_000, Math.floor(base / 5));

const size = (count: number) => Math.ceil(count * 1.15) + 5_000;

/** The base's database, loaded on first use (the generator's first `base` records) and kept. */
export async function baseDatabase(server: BenchServer, base: number, log: (line: string) => void): Promise<string> {
  const name = `alk_ingest_base_${base}`;
  const sql = connect(await ensureDatabase(server, name), 4);
  try {
    const [{ loaded }] = await sql<{ loaded: number }[]>`SELECT count(*)::integer AS loaded FROM observations`;
    if (loaded !== base) {
      log(`loading the base of ${base.toLocaleString('en-US')} observations (kept for later runs)`);
      await ingestObservations(sql, baseRecords(base), { today: INCREMENT_TODAY });
      // As after any large load: statistics for the planner.
      await sql`ANALYZE`;
    }
  } finally {
    await sql.end();
  }
  return name;
}

/** The base's records: the generator's first `base`. */
export function baseRecords(base: number): Iterable<ObservationRecord> {
  return take(generateDataset({ seed: INCREMENT_SEED, size: size(base), today: INCREMENT_TODAY }).observations(), base);
}

/** The increment's records in generator order (the caller puts them in crawl order). */
export function* incrementRecords(base: number): Generator<ObservationRecord> {
  const increment = incrementOf(base);
  const fresh = Math.floor(increment / 4);
  const known = increment - fresh;
  const every = Math.floor(base / known);
  let n = 0;
  for (const record of generateDataset({
    seed: INCREMENT_SEED,
    size: size(base + fresh),
    today: INCREMENT_TODAY,
  }).observations()) {
    if (n >= base + fresh) return;
    if (n >= base || (n % every === 0 && n / every < known)) yield record;
    n += 1;
  }
}

/** Runs statements one after another on the server's `postgres` database (outside any transaction). */
async function onServer(server: BenchServer, ...statements: string[]): Promise<void> {
  const admin = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  try {
    for (const statement of statements) await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh copy of `template` named `name`: every run starts from the same base. Its files are
 * then read once, when the server is on this machine: a running server's data is in the page
 * cache, and a copy left partly on disk would make the first measurement pay for reading it.
 */
export async function copyOf(server: BenchServer, template: string, name: string): Promise<string> {
  await onServer(
    server,
    `DROP DATABASE IF EXISTS ${name}`,
    `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`,
  );
  const url = server.urlOf(name);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ folder }] = await sql<{ folder: string }[]>`
      SELECT current_setting('data_directory') || '/base/' || oid AS folder
      FROM pg_database WHERE datname = current_database()`;
    if (fs.existsSync(folder)) {
      for (const file of fs.readdirSync(folder)) {
        for await (const _ of fs.createReadStream(path.join(folder, file), { highWaterMark: 1 << 20 })) {
          // read, to be cached
        }
      }
    }
  } finally {
    await sql.end();
  }
  return url;
}

/**
 * Drops a copy once measured: left behind, autovacuum would work through its fresh rows in the
 * background of the next measurement.
 */
export async function dropCopy(server: BenchServer, name: string): Promise<void> {
  await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
