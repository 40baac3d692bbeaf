import type postgres from 'postgres';
import { rootDomain } from '../contract/root-domain.ts';
import { SEARCH_KEY_VERSION } from '../contract/search-key.ts';
import type { Sql } from '../data/client.ts';
import { SANDBOX_SCHEMA } from '../data/sandbox.ts';
import { keyedNames } from '../data/search-keys.ts';
import { queueWatchNews } from '../data/watch-news.ts';
import {
  type BatchOutcome,
  countStatuses,
  type IngestKind,
  type IngestOptions,
  type IngestSummary,
  ingestInBatches,
  MAX_BATCH_SIZE,
  type Records,
  type RowStatus,
  type StagedBatch,
} from './batches.ts';
import { type Connection, copyField } from './copy.ts';
import { advertiserName, calendarDate, reject, requiredText, utcDate } from './fields.ts';

/** The fields of an observation record, as named in files. */
export const OBSERVATION_FIELDS = [
  'creative_id',
  'advertiser_id',
  'advertiser_name',
  'country',
  'landing_url',
  'seen_on',
] as const;

const ADVERTISER_ID = /^AR[0-9]{1,30}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
/** Creative ids are opaque, but must be one printable token that PostgreSQL stores unchanged. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters, on purpose
const CREATIVE_ID = /^[^\s\u0000-\u001f\u007f\uD800-\uDFFF]{1,256}$/u;

/** ingest_seq = batch number * stride + position in the batch (see migrations/00002_observations). */
const INGEST_SEQ_STRIDE = 1_000_000;
if (MAX_BATCH_SIZE >= INGEST_SEQ_STRIDE) throw new Error('a batch must fit in the ingest_seq stride');

/** Serializes ingests of observations, so ownership and ingest order follow commit order. */
const OBSERVATIONS_LOCK = 7_310_001;

/**
 * Loads observation records (docs/product-rules.md §1, and R10.5–R10.13 of §10).
 *
 * Rows are read in order and behave as if applied one at a time: a row whose identity
 * (creative, day, landing root domain) is unknown is "new"; one that changes the name or country
 * of its identity is "updated" and becomes the latest ingested; an identical one is "unchanged"
 * and changes nothing (it is not re-ingested), so loading a file again changes nothing. (A file
 * that gives one identity two different names replays that change when loaded again: its rows
 * count as "updated" and the final values are the same.) A creative belongs to the identifier of
 * the first accepted row that mentions it; a later row tying it to another identifier is
 * rejected. The result does not depend on the batch size. Each batch, with every aggregate it
 * affects, commits in one transaction; an error stops the load after the last committed batch,
 * and loading the whole input again completes it. The load returns once every batch is durable,
 * and the brand watch news it found is queued for delivery.
 */
export async function ingestObservations(
  sql: Sql,
  records: Records,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const summary = await ingestInBatches(sql, records, options, observationsKind(utcDate(options.today ?? new Date())));
  // The load's brand watch news, into the outbox: one delivery per watch (docs/product-rules.md R19.21).
  await queueWatchNews(sql);
  return summary;
}

function observationsKind(today: string): IngestKind {
  return {
    lock: OBSERVATIONS_LOCK,
    tables: {
      ingest_staged: `
        pos             integer NOT NULL,
        creative_id     text COLLATE "C" NOT NULL,
        seen_on         date NOT NULL,
        landing_domain  text COLLATE "C" NOT NULL,
        advertiser_id   text COLLATE "C" NOT NULL,
        advertiser_name text COLLATE "C" NOT NULL,
        country         char(2) COLLATE "C" NOT NULL,
        month           date NOT NULL`,
      // One row per creative of the batch; fresh: not in the data before this batch.
      ingest_claims: `
        creative_id text COLLATE "C" NOT NULL,
        owner       text COLLATE "C" NOT NULL,
        fresh       boolean NOT NULL`,
      // The net change per identity; stored: the identity is already an observation.
      ingest_changes: `
        creative_id     text COLLATE "C" NOT NULL,
        seen_on         date NOT NULL,
        landing_domain  text COLLATE "C" NOT NULL,
        advertiser_id   text COLLATE "C" NOT NULL,
        advertiser_name text COLLATE "C" NOT NULL,
        country         char(2) COLLATE "C" NOT NULL,
        ingest_seq      bigint NOT NULL,
        month           date NOT NULL,
        stored          boolean NOT NULL,
        fresh           boolean NOT NULL`,
      // Per identifier and domain, and per identifier and month: creatives seen there for the first time.
      ingest_domains_added: `
        advertiser_id  text COLLATE "C" NOT NULL,
        landing_domain text COLLATE "C" NOT NULL,
        creatives      integer NOT NULL`,
      // One row per identifier with changes; fresh: no observation before this batch.
      ingest_advertisers: `
        advertiser_id text COLLATE "C" NOT NULL,
        fresh         boolean NOT NULL`,
      ingest_pairs: `
        advertiser_id  text COLLATE "C" NOT NULL,
        landing_domain text COLLATE "C" NOT NULL,
        creatives      integer NOT NULL,
        first_seen     date NOT NULL,
        last_seen      date NOT NULL,
        new_pair       boolean NOT NULL`,
      ingest_months: `
        advertiser_id text COLLATE "C" NOT NULL,
        month         date NOT NULL,
        creatives     integer NOT NULL`,
      // The batch's names that advertiser_names did not hold, with their search keys.
      ingest_name_keys: `
        name         text COLLATE "C" NOT NULL,
        search_key   text COLLATE "C" NOT NULL,
        search_grams integer[],
        search_tokens text[]`,
    },
    columns: [
      'pos',
      'creative_id',
      'seen_on',
      'landing_domain',
      'advertiser_id',
      'advertiser_name',
      'country',
      'month',
    ],
    validate: (record) => validateObservation(record, today),
    identityFields: 3,
    apply: applyObservations,
  };
}

function validateObservation(record: Record<string, unknown>, today: string): string {
  const creativeId = requiredText(record, 'creative_id');
  if (!CREATIVE_ID.test(creativeId)) reject('malformed creative_id');
  const advertiserId = requiredText(record, 'advertiser_id');
  if (!ADVERTISER_ID.test(advertiserId)) reject('malformed advertiser_id');
  const name = advertiserName(record);
  const country = requiredText(record, 'country');
  if (!COUNTRY.test(country)) reject('malformed country');
  const seenOn = calendarDate(record, 'seen_on');
  if (seenOn > today) reject('future date seen_on');
  const landingDomain = rootDomain(requiredText(record, 'landing_url'));
  if (landingDomain === null) reject('landing_url has no registrable domain');
  // Only the creative id and the name can hold characters COPY must escape. The calendar month
  // is the date's first day, which the aggregates group by.
  return (
    `${copyField(creativeId)}\t${seenOn}\t${landingDomain}\t${advertiserId}` +
    `\t${copyField(name)}\t${country.toUpperCase()}\t${seenOn.slice(0, 8)}01`
  );
}

/**
 * The batch's statements are sent in two groups, each at once and run back to back: the
 * classification, then the changes it found (with the search keys of their new names, computed
 * here in between). This process meanwhile reads the next batch.
 *
 * Probes of the stored data are the cost of a batch, so they are skipped where the answer is
 * known: a creative new to the data has no observation, domain or month yet, and an identifier
 * new to the data has no aggregate row; a bulk load of new data then mostly appends. The large
 * tables get plain INSERTs of rows known to be new and UPDATEs of rows known to exist, since
 * ON CONFLICT pays a speculative insertion per row (the advisory lock keeps other loads out);
 * the per-identifier and per-domain tables, a row for every few observations, keep upserts.
 */
async function applyObservations(connection: Connection, batch: StagedBatch): Promise<BatchOutcome> {
  const [, , [{ positions: disowned }], statuses, newNames] = await Promise.all([
    connection`SELECT nextval('ingest_batches')`,

    // Ownership. Each creative's owner is its stored owner (that of any of its observations) or,
    // for a creative new to the data, the identifier of its first row here; rows naming another
    // identifier are rejected and take no further part (a rejected row establishes nothing).
    connection`
      INSERT INTO ingest_claims (creative_id, owner, fresh)
      SELECT f.creative_id, coalesce(o.advertiser_id, f.advertiser_id), o.advertiser_id IS NULL
      FROM (
        SELECT DISTINCT ON (creative_id) creative_id, advertiser_id
        FROM ingest_staged
        ORDER BY creative_id, pos
      ) f
      LEFT JOIN LATERAL (
        SELECT o.advertiser_id FROM observations o WHERE o.creative_id = f.creative_id LIMIT 1
      ) o ON true`,
    connection<{ positions: number[] }[]>`
      SELECT coalesce(array_agg(s.pos ORDER BY s.pos), '{}') AS positions
      FROM ingest_staged s JOIN ingest_claims c ON c.creative_id = s.creative_id
      WHERE c.owner <> s.advertiser_id`,

    batch.repeats ? classifyRepeats(connection) : classifyFirsts(connection),

    // Search keys are computed here, not by the database (migrations/00025_search-keys-stored),
    // and only for the names new to advertiser_names that the batch's changes carry: an
    // identifier takes its name from a change, so no other name of the batch can become current.
    connection<{ name: string }[]>`
      SELECT n.advertiser_name AS name
      FROM (SELECT DISTINCT advertiser_name FROM ingest_changes) n
      LEFT JOIN LATERAL (
        SELECT true AS known FROM advertiser_names a WHERE a.name = n.advertiser_name LIMIT 1
      ) k ON true
      WHERE k.known IS NULL`,
  ]);
  await Promise.all([
    ...applyChanges(connection),
    ...(newNames.length === 0
      ? []
      : addNames(
          connection,
          newNames.map((row) => row.name),
        )),
  ]);
  const counts = countStatuses(statuses);
  if (!batch.repeats) counts.unchanged = batch.rows - disowned.length - counts.new - counts.updated;
  return {
    counts,
    rejects: disowned.map((pos) => ({ index: pos, reason: 'creative already tied to another identifier' })),
  };
}

/**
 * Each row is compared with the state just before it: the stored observation for the first row
 * of an identity in this batch, the previous row of the same identity otherwise. The net change
 * per identity has the values of its last row and is ingested at its last changing row; file
 * order decides "latest ingested", so a batch's rows follow every earlier batch's. LIMIT keeps
 * the lateral probe a subquery, whose condition on the outer row then skips it.
 */
function classifyRepeats(connection: Connection) {
  return connection<{ status: RowStatus; count: number }[]>`
    WITH classified AS (
      SELECT s.pos, s.creative_id, s.seen_on, s.landing_domain, s.advertiser_id, s.advertiser_name, s.country, s.month,
             s.fresh, o.stored IS NOT NULL AS stored,
             CASE
               WHEN s.previous_pos IS NOT NULL THEN
                 CASE WHEN (s.advertiser_name, s.country) = (s.previous_name, s.previous_country)
                      THEN 'unchanged' ELSE 'updated' END
               WHEN o.stored IS NULL THEN 'new'
               WHEN (s.advertiser_name, s.country) = (o.advertiser_name, o.country) THEN 'unchanged'
               ELSE 'updated'
             END AS status
      FROM (
        SELECT s.*, c.fresh,
               lag(s.pos) OVER same_identity AS previous_pos,
               lag(s.advertiser_name) OVER same_identity AS previous_name,
               lag(s.country) OVER same_identity AS previous_country
        FROM ingest_staged s JOIN ingest_claims c ON c.creative_id = s.creative_id AND c.owner = s.advertiser_id
        WINDOW same_identity AS (PARTITION BY s.creative_id, s.seen_on, s.landing_domain ORDER BY s.pos)
      ) s
      ${storedIdentity(connection, 's')}
    ), changed AS (
      INSERT INTO ingest_changes
      SELECT DISTINCT ON (creative_id, seen_on, landing_domain)
             creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country,
             currval('ingest_batches') * ${INGEST_SEQ_STRIDE} + pos, month, stored, fresh
      FROM classified
      WHERE status <> 'unchanged'
      ORDER BY creative_id, seen_on, landing_domain, pos DESC
    )
    SELECT status, count(*)::integer AS count FROM classified GROUP BY status`;
}

/**
 * The observation already stored with the identity (creative, day, landing domain) of the staged
 * row `s`, as `o`; looked up only when the creative is not fresh (`fresh` of the relation named).
 */
function storedIdentity(connection: Connection, fresh: 's' | 'c') {
  return connection`
    LEFT JOIN LATERAL (
      SELECT true AS stored, o.advertiser_name, o.country
      FROM observations o
      WHERE NOT ${connection(fresh)}.fresh
        AND o.creative_id = s.creative_id AND o.seen_on = s.seen_on AND o.landing_domain = s.landing_domain
      LIMIT 1
    ) o ON true`;
}

/**
 * classifyRepeats when no two rows of the batch share an identity: every row is the first of its
 * identity and its own net change, so only the changes are written, and the rows that change
 * nothing are the others.
 */
function classifyFirsts(connection: Connection) {
  return connection<{ status: RowStatus; count: number }[]>`
    WITH changed AS (
      INSERT INTO ingest_changes
      SELECT s.creative_id, s.seen_on, s.landing_domain, s.advertiser_id, s.advertiser_name, s.country,
             currval('ingest_batches') * ${INGEST_SEQ_STRIDE} + s.pos, s.month, o.stored IS NOT NULL, c.fresh
      FROM ingest_staged s
      JOIN ingest_claims c ON c.creative_id = s.creative_id AND c.owner = s.advertiser_id
      ${storedIdentity(connection, 'c')}
      WHERE o.stored IS NULL OR (s.advertiser_name, s.country) <> (o.advertiser_name, o.country)
      RETURNING stored
    )
    SELECT CASE WHEN stored THEN 'updated' ELSE 'new' END AS status, count(*)::integer AS count
    FROM changed GROUP BY stored`;
}

/**
 * Writes the batch's net changes and grows every aggregate by them. The aggregates count
 * members of presence sets (creative × domain, creative × month), so each step first finds the
 * members this batch adds, then records them. Updated observations already lie inside every
 * stored span and set; they only compete for the identifier's current name and country.
 * A creative's observations are its presence: whether it was seen on a domain or in a month
 * before is a probe of the observations' primary key, which starts with the creative, so these
 * probes run before the batch's observations are written. Each probe is a LIMIT 1 lateral
 * subquery: its condition on the outer row skips the index for fresh creatives and
 * identifiers, where a NOT EXISTS could become a hashed subplan that reads the whole table
 * for a single row that needs it.
 */
function applyChanges(connection: Connection): postgres.PendingQuery<postgres.Row[]>[] {
  return [
    // Creatives newly seen on a domain, and in a month, per identifier. Only a new observation
    // can add one (an updated one was there before).
    connection`
      INSERT INTO ingest_domains_added (advertiser_id, landing_domain, creatives)
      SELECT advertiser_id, landing_domain, count(*)::integer
      FROM (SELECT DISTINCT creative_id, landing_domain, advertiser_id, fresh FROM ingest_changes WHERE NOT stored) m
      LEFT JOIN LATERAL (
        SELECT true AS known FROM observations o
        WHERE NOT m.fresh AND o.creative_id = m.creative_id AND o.landing_domain = m.landing_domain
        LIMIT 1
      ) k ON true
      WHERE k.known IS NULL
      GROUP BY advertiser_id, landing_domain`,
    connection`
      INSERT INTO ingest_months (advertiser_id, month, creatives)
      SELECT advertiser_id, month, count(*)::integer
      FROM (SELECT DISTINCT creative_id, month, advertiser_id, fresh FROM ingest_changes WHERE NOT stored) m
      LEFT JOIN LATERAL (
        SELECT true AS known FROM observations o
        WHERE NOT m.fresh AND o.creative_id = m.creative_id
          AND o.seen_on >= m.month AND o.seen_on < (m.month + interval '1 month')::date
        LIMIT 1
      ) k ON true
      WHERE k.known IS NULL
      GROUP BY advertiser_id, month`,

    connection`
      INSERT INTO observations
        (creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq)
      SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq
      FROM ingest_changes
      WHERE NOT stored
      ORDER BY creative_id, seen_on, landing_domain`,
    ...probing(
      connection,
      connection`
      UPDATE observations o
      SET advertiser_name = c.advertiser_name, country = c.country, ingest_seq = c.ingest_seq
      FROM ingest_changes c
      WHERE c.stored
        AND o.creative_id = c.creative_id AND o.seen_on = c.seen_on AND o.landing_domain = c.landing_domain`,
    ),
    connection`
      INSERT INTO ingest_advertisers (advertiser_id, fresh)
      SELECT a.advertiser_id, k.known IS NULL
      FROM (SELECT DISTINCT advertiser_id FROM ingest_changes) a
      LEFT JOIN LATERAL (
        SELECT true AS known FROM identifiers i WHERE i.advertiser_id = a.advertiser_id LIMIT 1
      ) k ON true`,

    // Identifier × landing domain.
    connection`
      INSERT INTO ingest_pairs (advertiser_id, landing_domain, creatives, first_seen, last_seen, new_pair)
      SELECT p.advertiser_id, p.landing_domain, coalesce(n.creatives, 0), p.first_seen, p.last_seen, k.known IS NULL
      FROM (
        SELECT advertiser_id, landing_domain, min(seen_on) AS first_seen, max(seen_on) AS last_seen
        FROM ingest_changes GROUP BY advertiser_id, landing_domain
      ) p
      JOIN ingest_advertisers a ON a.advertiser_id = p.advertiser_id
      LEFT JOIN LATERAL (
        SELECT true AS known FROM identifier_domains i
        WHERE NOT a.fresh AND i.advertiser_id = p.advertiser_id AND i.landing_domain = p.landing_domain
        LIMIT 1
      ) k ON true
      LEFT JOIN ingest_domains_added n ON n.advertiser_id = p.advertiser_id AND n.landing_domain = p.landing_domain`,
    connection`
      INSERT INTO identifier_domains (advertiser_id, landing_domain, creatives, first_seen, last_seen)
      SELECT advertiser_id, landing_domain, creatives, first_seen, last_seen
      FROM ingest_pairs WHERE new_pair
      ORDER BY advertiser_id, landing_domain`,
    ...probing(
      connection,
      connection`
      UPDATE identifier_domains i
      SET creatives = i.creatives + p.creatives,
          first_seen = least(i.first_seen, p.first_seen),
          last_seen = greatest(i.last_seen, p.last_seen)
      FROM ingest_pairs p
      WHERE NOT p.new_pair
        AND i.advertiser_id = p.advertiser_id AND i.landing_domain = p.landing_domain
        AND (p.creatives > 0 OR p.first_seen < i.first_seen OR p.last_seen > i.last_seen)`,
    ),
    connection`
      INSERT INTO landing_domain_stats AS d (domain, advertisers)
      SELECT landing_domain, count(*) FROM ingest_pairs WHERE new_pair GROUP BY landing_domain
      ON CONFLICT (domain) DO UPDATE SET advertisers = d.advertisers + EXCLUDED.advertisers`,

    // Identifier × calendar month.
    connection`
      INSERT INTO identifier_months AS m (advertiser_id, month, creatives)
      SELECT advertiser_id, month, creatives FROM ingest_months
      ON CONFLICT (advertiser_id, month) DO UPDATE SET creatives = m.creatives + EXCLUDED.creatives`,
    connection`
      INSERT INTO identifier_month_domains (advertiser_id, month, landing_domain)
      SELECT d.advertiser_id, d.month, d.landing_domain
      FROM (SELECT DISTINCT advertiser_id, month, landing_domain FROM ingest_changes) d
      JOIN ingest_advertisers a ON a.advertiser_id = d.advertiser_id
      LEFT JOIN LATERAL (
        SELECT true AS known FROM identifier_month_domains imd
        WHERE NOT a.fresh AND imd.advertiser_id = d.advertiser_id AND imd.month = d.month
          AND imd.landing_domain = d.landing_domain
        LIMIT 1
      ) k ON true
      WHERE k.known IS NULL
      ORDER BY 1, 2, 3`,

    // Identifier totals and current name. Every change carries a higher ingest_seq than anything
    // stored, so the identifier's most recent observation is either the stored one or the latest
    // change, whichever has the later (seen_on, ingest_seq). The span comes from the identifier's
    // domains, a row for several changes.
    connection`
      WITH span AS (
        SELECT advertiser_id, min(first_seen) AS first_seen, max(last_seen) AS last_seen,
               (count(*) FILTER (WHERE new_pair))::integer AS landing_domains
        FROM ingest_pairs GROUP BY advertiser_id
      ), latest AS (
        SELECT DISTINCT ON (advertiser_id) advertiser_id, advertiser_name, country, seen_on, ingest_seq
        FROM ingest_changes
        ORDER BY advertiser_id, seen_on DESC, ingest_seq DESC
      ), claimed AS (
        SELECT owner AS advertiser_id, count(*)::integer AS creatives
        FROM ingest_claims WHERE fresh GROUP BY owner
      )
      INSERT INTO identifiers AS i
        (advertiser_id, name, country, name_seen_on, name_ingest_seq, creatives, landing_domains, first_seen, last_seen)
      SELECT l.advertiser_id, l.advertiser_name, l.country, l.seen_on, l.ingest_seq,
             coalesce(c.creatives, 0), s.landing_domains, s.first_seen, s.last_seen
      FROM latest l
      JOIN span s USING (advertiser_id)
      LEFT JOIN claimed c USING (advertiser_id)
      ON CONFLICT (advertiser_id) DO UPDATE
      SET creatives = i.creatives + EXCLUDED.creatives,
          landing_domains = i.landing_domains + EXCLUDED.landing_domains,
          first_seen = least(i.first_seen, EXCLUDED.first_seen),
          last_seen = greatest(i.last_seen, EXCLUDED.last_seen),
          name = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                      THEN EXCLUDED.name ELSE i.name END,
          country = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                         THEN EXCLUDED.country ELSE i.country END,
          name_seen_on = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on,
            i.name_ingest_seq)
                              THEN EXCLUDED.name_seen_on ELSE i.name_seen_on END,
          name_ingest_seq = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on,
            i.name_ingest_seq)
                                 THEN EXCLUDED.name_ingest_seq ELSE i.name_ingest_seq END`,
    matchWatches(connection),
  ];
}

/**
 * Brand watch (docs/product-rules.md R19.20): the batch's new (identifier, landing domain) pairs
 * joined, by index, to the live watches of the dataset being loaded (the sandbox's loads, whose
 * search_path starts with its schema, match only sandbox watches), in one statement. A domain
 * watch's target is the landing domain, an advertiser watch's the identifier's name once the batch
 * is applied. The unique key reports each change once per watch, whatever the load's history.
 */
function matchWatches(connection: Connection): postgres.PendingQuery<postgres.Row[]> {
  return connection`
    INSERT INTO public.watch_events
      (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
    SELECT m.watch_id, p.advertiser_id, i.name, p.landing_domain, p.first_seen, i.landing_domains
    FROM ingest_pairs p
    JOIN identifiers i ON i.advertiser_id = p.advertiser_id
    CROSS JOIN LATERAL (
      SELECT w.id AS watch_id FROM public.watches w
      WHERE w.sandbox = (current_schema() = ${SANDBOX_SCHEMA}) AND w.kind = 'domain'
        AND w.target = p.landing_domain AND w.deleted_at IS NULL
      UNION ALL
      SELECT w.id FROM public.watches w
      WHERE w.sandbox = (current_schema() = ${SANDBOX_SCHEMA}) AND w.kind = 'advertiser'
        AND w.target = i.name AND w.deleted_at IS NULL
    ) m
    WHERE p.new_pair
    ON CONFLICT ON CONSTRAINT watch_events_once DO NOTHING`;
}

/**
 * Adds to advertiser_names, with their search keys, the names new to it that an identifier
 * carries once the batch is applied (a name only an earlier observation gave is not carried),
 * in key order, so names alike share pages (migrations/00019_names-in-key-order).
 */
function addNames(connection: Connection, names: string[]): postgres.PendingQuery<postgres.Row[]>[] {
  return [
    connection`
      INSERT INTO ingest_name_keys (name, search_key, search_grams, search_tokens)
      SELECT name, search_key, search_grams, search_tokens
      FROM json_to_recordset(${keyedNames(names)}::text::json)
           AS k(name text, search_key text, search_grams integer[], search_tokens text[])`,
    connection`
      INSERT INTO advertiser_names (name, search_key, search_grams, search_tokens, key_version)
      SELECT k.name, k.search_key, k.search_grams, k.search_tokens, ${SEARCH_KEY_VERSION}
      FROM ingest_name_keys k
      LEFT JOIN LATERAL (SELECT true AS carried FROM identifiers i WHERE i.name = k.name LIMIT 1) i ON true
      WHERE i.carried
      ORDER BY k.search_key, k.name`,
  ];
}

/**
 * `statement` joined to stored rows by index probes only. An UPDATE … FROM cannot be written
 * as a lateral probe, and the planner, not knowing how few staged rows pass the filter, may
 * merge-join or hash the whole table instead: a batch would cost the size of the data.
 */
function probing(
  connection: Connection,
  statement: postgres.PendingQuery<postgres.Row[]>,
): postgres.PendingQuery<postgres.Row[]>[] {
  return [
    connection.unsafe('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off'),
    statement,
    connection.unsafe('SET LOCAL enable_hashjoin TO DEFAULT; SET LOCAL enable_mergejoin TO DEFAULT'),
  ];
}
