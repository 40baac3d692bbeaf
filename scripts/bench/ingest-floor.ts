/**
 * The floor of a load's PostgreSQL work (docs/ingest.md): the end state a load must
 * reach, observations and the five aggregates with every index and trigger the migrations give
 * them, written the cheapest way found, from rows that are already COPY text. One backend, one
 * pass, set-based, into a fresh migrated database: no rules, no batches, nothing probed, every
 * sort in memory. Whatever a load does beyond this is the price of its rules and of arriving in
 * batches.
 *
 * The rows must be distinct identities (the synthetic data's are); ingest_seq is the row's place
 * in the file, so the latest name of an identifier is the one a real load would keep, and
 * checkAggregates can compare the result with the observations exactly.
 */
import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import type postgres from 'postgres';
import { SEARCH_KEY_VERSION } from '../../src/contract/search-key.ts';
import { keyedNames } from '../../src/data/search-keys.ts';

/** The observation's columns, in the order the benchmark's COPY text has them. */
export const COPIED_COLUMNS = `
  creative_id     text COLLATE "C" NOT NULL,
  seen_on         date NOT NULL,
  landing_domain  text COLLATE "C" NOT NULL,
  advertiser_id   text COLLATE "C" NOT NULL,
  advertiser_name text COLLATE "C" NOT NULL,
  country         char(2) COLLATE "C" NOT NULL`;

/** The copied rows, each with its place in the file. */
const STAGED = `${COPIED_COLUMNS},
  ingest_seq      bigint GENERATED ALWAYS AS IDENTITY`;

/** Rows a file may have: a row's place in it fits in ten decimal digits. */
const PLACES = 10_000_000_000;

/** After the copy, in order. */
const PASS = [
  // The observations, in key order: the index is filled from left to right.
  `INSERT INTO observations
     (creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq)
   SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq
   FROM staged ORDER BY creative_id, seen_on, landing_domain`,
  // Presence sets: each creative once per landing domain, and once per calendar month.
  `CREATE TEMP TABLE creative_domains AS
   SELECT advertiser_id, creative_id, landing_domain, min(seen_on) AS first_seen, max(seen_on) AS last_seen
   FROM staged GROUP BY advertiser_id, creative_id, landing_domain`,
  `CREATE TEMP TABLE creative_months AS
   SELECT DISTINCT advertiser_id, creative_id, date_trunc('month', seen_on)::date AS month FROM staged`,
  `INSERT INTO identifier_month_domains (advertiser_id, month, landing_domain)
   SELECT DISTINCT advertiser_id, date_trunc('month', seen_on)::date, landing_domain FROM staged
   ORDER BY 1, 2, 3`,
  `INSERT INTO identifier_months (advertiser_id, month, creatives)
   SELECT advertiser_id, month, count(*) FROM creative_months GROUP BY advertiser_id, month ORDER BY 1, 2`,
  `INSERT INTO identifier_domains (advertiser_id, landing_domain, creatives, first_seen, last_seen)
   SELECT advertiser_id, landing_domain, count(*), min(first_seen), max(last_seen)
   FROM creative_domains GROUP BY advertiser_id, landing_domain ORDER BY 1, 2`,
  `INSERT INTO landing_domain_stats (domain, advertisers)
   SELECT landing_domain, count(*) FROM identifier_domains GROUP BY landing_domain ORDER BY 1`,
  // An identifier's latest name and country: of each name it used, the last sighting (day, then
  // file order, as one number: days since 0001-01-01, then the row's place), then the latest of
  // those few.
  `CREATE TEMP TABLE names AS
   SELECT advertiser_id, advertiser_name, country,
          max((seen_on - date '0001-01-01')::bigint * ${PLACES} + ingest_seq) AS latest
   FROM staged GROUP BY advertiser_id, advertiser_name, country`,
  `INSERT INTO identifiers AS i
     (advertiser_id, name, country, name_seen_on, name_ingest_seq, creatives, landing_domains, first_seen, last_seen)
   SELECT n.advertiser_id, n.advertiser_name, n.country, date '0001-01-01' + (n.latest / ${PLACES})::integer,
          n.latest % ${PLACES}, c.creatives, d.landing_domains, d.first_seen, d.last_seen
   FROM (SELECT DISTINCT ON (advertiser_id) * FROM names ORDER BY advertiser_id, latest DESC) n
   JOIN (SELECT advertiser_id, count(*)::integer AS landing_domains, min(first_seen) AS first_seen,
                max(last_seen) AS last_seen
         FROM identifier_domains GROUP BY advertiser_id) d USING (advertiser_id)
   JOIN (SELECT advertiser_id, count(DISTINCT creative_id)::integer AS creatives
         FROM creative_domains GROUP BY advertiser_id) c USING (advertiser_id)
   ORDER BY 1`,
];

export interface FloorRun {
  seconds: number;
  /** CPU seconds of the backend that ran it, when the server's processes can be read here. */
  backendCpuSeconds: number | null;
}

/**
 * Runs the floor on `sql` (a fresh migrated database, one connection) from `copyFile` (the
 * observation's columns as COPY text). `cpuOf` reads a process's CPU seconds, null if it cannot.
 */
export async function writeEndStateFloor(
  sql: postgres.Sql,
  copyFile: string,
  cpuOf: (pid: number) => number | null,
): Promise<FloorRun> {
  await sql.unsafe(`SET synchronous_commit = off; SET work_mem = '1GB'; SET jit = off`);
  await sql.unsafe(`CREATE UNLOGGED TABLE staged (${STAGED})`);
  await sql.unsafe('CHECKPOINT');
  const [{ pid }] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const cpuBefore = cpuOf(pid);
  const started = performance.now();
  const columns = 'creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country';
  await copyFileInto(sql, `staged (${columns})`, copyFile);
  for (const statement of PASS) await sql.unsafe(statement);
  // The names' search keys are computed in TypeScript (migrations/00025_search-keys-stored).
  const names = await sql<{ name: string }[]>`SELECT DISTINCT name FROM identifiers`;
  await sql`
    INSERT INTO advertiser_names (name, search_key, search_grams, search_tokens, key_version)
    SELECT name, search_key, search_grams, search_tokens, ${SEARCH_KEY_VERSION}
    FROM json_to_recordset(${keyedNames(names.map((row) => row.name))}::text::json)
      AS k(name text, search_key text, search_grams integer[], search_tokens text[])
    ORDER BY search_key, name`;
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuOf(pid);
  return {
    seconds,
    backendCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

/** Streams `file` (COPY text) into `target` (a table, maybe with its columns) through `sql`. */
export async function copyFileInto(sql: postgres.Sql, target: string, file: string): Promise<void> {
  const writable = await sql.unsafe(`COPY ${target} FROM STDIN`).writable();
  fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(writable);
  await finished(writable);
}
