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

/** ingest_seq of a load's row: its batch's number times this, plus its place in the batch. */
const SEQ_STRIDE = 1_000_000;

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
  return measured(sql, cpuOf, async (backend) => {
    await copyFileInto(backend, `staged (${COLUMNS})`, copyFile);
    for (const statement of PASS) await backend.unsafe(statement);
    await addNames(backend, await backend<{ name: string }[]>`SELECT DISTINCT name FROM identifiers`);
  });
}

const COLUMNS = 'creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country';

/**
 * Runs `pass` on one backend, `staged` created empty for it: its wall time, and that backend's
 * CPU when it can be read. Its temporary tables and settings go with it.
 */
async function measured(
  sql: postgres.Sql,
  cpuOf: (pid: number) => number | null,
  pass: (backend: postgres.Sql) => Promise<void>,
): Promise<FloorRun> {
  const backend = await sql.reserve();
  try {
    // One backend: no parallel workers, whose CPU would not be counted.
    await backend.unsafe(
      `SET synchronous_commit = off; SET work_mem = '1GB'; SET jit = off; SET max_parallel_workers_per_gather = 0`,
    );
    await backend.unsafe('DROP TABLE IF EXISTS staged');
    await backend.unsafe(`CREATE UNLOGGED TABLE staged (${STAGED})`);
    await backend.unsafe('CHECKPOINT');
    const [{ pid }] = await backend<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    const cpuBefore = cpuOf(pid);
    const started = performance.now();
    await pass(backend);
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuOf(pid);
    return {
      seconds,
      backendCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    };
  } finally {
    await backend.unsafe('DISCARD ALL').catch(() => {});
    backend.release();
  }
}

/**
 * Adds `names` to advertiser_names with their search keys, computed in TypeScript
 * (migrations/00025_search-keys-stored).
 */
async function addNames(sql: postgres.Sql, names: readonly { name: string }[]): Promise<void> {
  await sql`
    INSERT INTO advertiser_names (name, search_key, search_grams, search_tokens, key_version)
    SELECT name, search_key, search_grams, search_tokens, ${SEARCH_KEY_VERSION}
    FROM json_to_recordset(${keyedNames(names.map((row) => row.name))}::text::json)
      AS k(name text, search_key text, search_grams integer[], search_tokens text[])
    ORDER BY search_key, name`;
}

/**
 * The daily increment's floor, after the copy into `staged`: the end state of the stored data
 * with the increment applied, written the cheapest way found. Each row is matched once against
 * the stored observation of its identity; the new ones are added, and every aggregate grows by
 * what they add: presence first (is the creative new, or new on that domain or in that month?),
 * probed before they are written. The rows must be distinct identities, each new or repeating a
 * stored observation exactly (the benchmark's increment is): a changed one is refused, not
 * applied.
 */
const incrementPass = (firstSeq: bigint) => [
  // Probes in key order: rows near each other in the key share the index's and the heap's pages.
  // (LIMIT keeps the probe a subquery: joined, the planner would hash every stored observation.)
  `CREATE TEMP TABLE matched AS
   SELECT s.*, o.advertiser_name AS stored_name, o.country AS stored_country
   FROM (SELECT * FROM staged ORDER BY creative_id, seen_on, landing_domain) s
   LEFT JOIN LATERAL (
     SELECT o.advertiser_name, o.country FROM observations o
     WHERE o.creative_id = s.creative_id AND o.seen_on = s.seen_on AND o.landing_domain = s.landing_domain
     LIMIT 1
   ) o ON true`,
  `DO $$ BEGIN
     IF EXISTS (SELECT FROM matched WHERE (advertiser_name, country) <> (stored_name, stored_country)) THEN
       RAISE EXCEPTION 'the increment floor takes rows new or repeating a stored observation exactly';
     END IF;
   END $$`,
  `CREATE TEMP TABLE fresh AS
   SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country,
          ${firstSeq} + ingest_seq AS ingest_seq, date_trunc('month', seen_on)::date AS month
   FROM matched WHERE stored_name IS NULL
   ORDER BY creative_id, seen_on, landing_domain`,
  // Presence, probed before the new observations are written; a creative new to the data is new
  // on every domain and in every month, and is not probed again.
  `CREATE TEMP TABLE creatives AS
   SELECT f.advertiser_id, f.creative_id, k.known IS NULL AS added
   FROM (SELECT DISTINCT creative_id, advertiser_id FROM fresh ORDER BY creative_id) f
   LEFT JOIN LATERAL (SELECT true AS known FROM observations o WHERE o.creative_id = f.creative_id LIMIT 1) k
     ON true`,
  `CREATE TEMP TABLE creative_domains AS
   SELECT f.advertiser_id, f.creative_id, f.landing_domain
   FROM (SELECT DISTINCT f.advertiser_id, f.creative_id, f.landing_domain, c.added
         FROM fresh f JOIN creatives c USING (creative_id) ORDER BY f.creative_id, f.landing_domain) f
   LEFT JOIN LATERAL (
     SELECT true AS known FROM observations o
     WHERE NOT f.added AND o.creative_id = f.creative_id AND o.landing_domain = f.landing_domain LIMIT 1
   ) k ON true
   WHERE k.known IS NULL`,
  `CREATE TEMP TABLE creative_months AS
   SELECT f.advertiser_id, f.creative_id, f.month
   FROM (SELECT DISTINCT f.advertiser_id, f.creative_id, f.month, c.added
         FROM fresh f JOIN creatives c USING (creative_id) ORDER BY f.creative_id, f.month) f
   LEFT JOIN LATERAL (
     SELECT true AS known FROM observations o
     WHERE NOT f.added AND o.creative_id = f.creative_id
       AND o.seen_on >= f.month AND o.seen_on < (f.month + interval '1 month')::date
     LIMIT 1
   ) k ON true
   WHERE k.known IS NULL`,
  `INSERT INTO observations
     (creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq)
   SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq
   FROM fresh ORDER BY creative_id, seen_on, landing_domain`,
  `CREATE TEMP TABLE pairs AS
   SELECT p.advertiser_id, p.landing_domain, p.first_seen, p.last_seen, coalesce(c.creatives, 0) AS creatives,
          i.advertiser_id IS NULL AS new_pair
   FROM (SELECT advertiser_id, landing_domain, min(seen_on) AS first_seen, max(seen_on) AS last_seen
         FROM fresh GROUP BY advertiser_id, landing_domain) p
   LEFT JOIN (SELECT advertiser_id, landing_domain, count(*)::integer AS creatives
              FROM creative_domains GROUP BY advertiser_id, landing_domain) c USING (advertiser_id, landing_domain)
   LEFT JOIN identifier_domains i USING (advertiser_id, landing_domain)`,
  `INSERT INTO identifier_domains AS i (advertiser_id, landing_domain, creatives, first_seen, last_seen)
   SELECT advertiser_id, landing_domain, creatives, first_seen, last_seen FROM pairs ORDER BY 1, 2
   ON CONFLICT (advertiser_id, landing_domain) DO UPDATE
   SET creatives = i.creatives + EXCLUDED.creatives, first_seen = least(i.first_seen, EXCLUDED.first_seen),
       last_seen = greatest(i.last_seen, EXCLUDED.last_seen)`,
  `INSERT INTO landing_domain_stats AS d (domain, advertisers)
   SELECT landing_domain, count(*) FROM pairs WHERE new_pair GROUP BY landing_domain ORDER BY 1
   ON CONFLICT (domain) DO UPDATE SET advertisers = d.advertisers + EXCLUDED.advertisers`,
  `INSERT INTO identifier_months AS m (advertiser_id, month, creatives)
   SELECT advertiser_id, month, count(*) FROM creative_months GROUP BY advertiser_id, month ORDER BY 1, 2
   ON CONFLICT (advertiser_id, month) DO UPDATE SET creatives = m.creatives + EXCLUDED.creatives`,
  `INSERT INTO identifier_month_domains (advertiser_id, month, landing_domain)
   SELECT DISTINCT advertiser_id, month, landing_domain FROM fresh ORDER BY 1, 2, 3
   ON CONFLICT DO NOTHING`,
  // An identifier's name: its latest new observation's, if later than the stored one's.
  `INSERT INTO identifiers AS i
     (advertiser_id, name, country, name_seen_on, name_ingest_seq, creatives, landing_domains, first_seen, last_seen)
   SELECT l.advertiser_id, l.advertiser_name, l.country, l.seen_on, l.ingest_seq, coalesce(c.creatives, 0),
          p.landing_domains, p.first_seen, p.last_seen
   FROM (SELECT DISTINCT ON (advertiser_id) advertiser_id, advertiser_name, country, seen_on, ingest_seq
         FROM fresh ORDER BY advertiser_id, seen_on DESC, ingest_seq DESC) l
   JOIN (SELECT advertiser_id, (count(*) FILTER (WHERE new_pair))::integer AS landing_domains,
                min(first_seen) AS first_seen, max(last_seen) AS last_seen
         FROM pairs GROUP BY advertiser_id) p USING (advertiser_id)
   LEFT JOIN (SELECT advertiser_id, count(*)::integer AS creatives FROM creatives WHERE added GROUP BY advertiser_id) c
     USING (advertiser_id)
   ORDER BY 1
   ON CONFLICT (advertiser_id) DO UPDATE
   SET creatives = i.creatives + EXCLUDED.creatives,
       landing_domains = i.landing_domains + EXCLUDED.landing_domains,
       first_seen = least(i.first_seen, EXCLUDED.first_seen),
       last_seen = greatest(i.last_seen, EXCLUDED.last_seen),
       (name, country, name_seen_on, name_ingest_seq) = (
         SELECT * FROM (VALUES (i.name, i.country, i.name_seen_on, i.name_ingest_seq),
                               (EXCLUDED.name, EXCLUDED.country, EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq))
                       v (name, country, seen_on, ingest_seq)
         ORDER BY seen_on DESC, ingest_seq DESC LIMIT 1)`,
];

/**
 * The increment's floor on `sql` (one connection to a database holding the base), from
 * `copyFile` (the increment's rows as COPY text, in file order); measured like the load's floor.
 */
export async function writeIncrementFloor(
  sql: postgres.Sql,
  copyFile: string,
  cpuOf: (pid: number) => number | null,
): Promise<FloorRun> {
  return measured(sql, cpuOf, async (backend) => {
    await copyFileInto(backend, `staged (${COLUMNS})`, copyFile);
    // After every stored ingest_seq (a batch's number times its stride, plus a position), and
    // before any later load's: the increment is ingested after the base, in file order.
    const [{ first }] = await backend<{ first: string }[]>`
      SELECT (last_value + 1) * ${SEQ_STRIDE} AS first,
             setval('ingest_batches', last_value + 2 + (SELECT count(*) FROM staged) / ${SEQ_STRIDE})
      FROM ingest_batches`;
    for (const statement of incrementPass(BigInt(first))) await backend.unsafe(statement);
    // The names the new observations gave their identifiers, and advertiser_names lacks.
    await addNames(
      backend,
      await backend<{ name: string }[]>`
        SELECT DISTINCT i.name FROM identifiers i
        WHERE i.advertiser_id IN (SELECT advertiser_id FROM fresh)
          AND NOT EXISTS (SELECT FROM advertiser_names a WHERE a.name = i.name)`,
    );
  });
}

/** Streams `file` (COPY text) into `target` (a table, maybe with its columns) through `sql`. */
export async function copyFileInto(sql: postgres.Sql, target: string, file: string): Promise<void> {
  const writable = await sql.unsafe(`COPY ${target} FROM STDIN`).writable();
  fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(writable);
  await finished(writable);
}
