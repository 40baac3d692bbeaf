import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { rootDomain } from '../domain/root-domain.ts';
import {
  beginBatch,
  countStatuses,
  ingestInBatches,
  MAX_BATCH_SIZE,
  type BatchOutcome,
  type IngestOptions,
  type IngestSummary,
  type Records,
  type RowStatus,
} from './batches.ts';
import { advertiserName, calendarDate, reject, requiredText, utcDate } from './fields.ts';

/** One valid observation row, as staged in PostgreSQL. */
interface ObservationRow {
  pos: number;
  ingest_seq: number;
  creative_id: string;
  seen_on: string;
  landing_domain: string;
  advertiser_id: string;
  advertiser_name: string;
  country: string;
}

const ADVERTISER_ID = /^AR[0-9]{1,30}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
/** Creative ids are opaque, but must be one printable token that PostgreSQL stores unchanged. */
const CREATIVE_ID = /^[^\s\u0000-\u001f\u007f\uD800-\uDFFF]{1,256}$/u;

/** ingest_seq = batch number * stride + position in the batch (see migration 0002). */
const INGEST_SEQ_STRIDE = 1_000_000;
if (MAX_BATCH_SIZE >= INGEST_SEQ_STRIDE) throw new Error('a batch must fit in the ingest_seq stride');

/** Serializes ingests of observations, so ownership and ingest order follow commit order. */
const OBSERVATIONS_LOCK = 7_310_001;

/**
 * Loads observation records (product decisions §1 and §8 "Ingest").
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
 * and loading the whole input again completes it.
 */
export async function ingestObservations(sql: Sql, records: Records, options: IngestOptions = {}): Promise<IngestSummary> {
  const today = utcDate(options.today ?? new Date());
  return ingestInBatches(
    records,
    options.batchSize,
    (record) => validateObservation(record, today),
    (rows) => applyObservations(sql, rows),
  );
}

function validateObservation(record: Record<string, unknown>, today: string): ObservationRow {
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
  return {
    pos: 0,
    ingest_seq: 0,
    creative_id: creativeId,
    seen_on: seenOn,
    landing_domain: landingDomain,
    advertiser_id: advertiserId,
    advertiser_name: name,
    country: country.toUpperCase(),
  };
}

async function applyObservations(sql: Sql, rows: ObservationRow[]): Promise<BatchOutcome> {
  return sql.begin(async (tx) => {
    await beginBatch(tx, OBSERVATIONS_LOCK);
    const [{ batch }] = await tx<{ batch: number }[]>`SELECT nextval('ingest_batches') AS batch`;
    // File order decides "latest ingested": a batch's rows follow every earlier batch's rows.
    rows.forEach((row, index) => {
      row.pos = index;
      row.ingest_seq = batch * INGEST_SEQ_STRIDE + index;
    });

    await tx`
      CREATE TEMP TABLE staged (
        pos             integer PRIMARY KEY,
        ingest_seq      bigint NOT NULL,
        creative_id     text COLLATE "C" NOT NULL,
        seen_on         date NOT NULL,
        landing_domain  text COLLATE "C" NOT NULL,
        advertiser_id   text COLLATE "C" NOT NULL,
        advertiser_name text COLLATE "C" NOT NULL,
        country         char(2) COLLATE "C" NOT NULL
      ) ON COMMIT DROP`;
    await tx`
      INSERT INTO staged
      SELECT pos, ingest_seq, creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country
      FROM json_populate_recordset(NULL::staged, ${JSON.stringify(rows)}::text::json)`;

    // Ownership. Each creative's owner is its stored owner or, for a creative new to the data,
    // the identifier of its first row here; rows naming another identifier are rejected and
    // take no further part (a rejected row establishes nothing).
    await tx`
      CREATE TEMP TABLE claims ON COMMIT DROP AS
      SELECT DISTINCT ON (s.creative_id)
             s.creative_id,
             coalesce(c.advertiser_id, s.advertiser_id) AS owner,
             c.creative_id IS NULL AS unclaimed
      FROM staged s
      LEFT JOIN creatives c ON c.creative_id = s.creative_id
      ORDER BY s.creative_id, s.pos`;
    await tx`
      INSERT INTO creatives (creative_id, advertiser_id)
      SELECT creative_id, owner FROM claims WHERE unclaimed`;
    const disowned = await tx<{ pos: number }[]>`
      DELETE FROM staged s
      USING claims c
      WHERE c.creative_id = s.creative_id AND c.owner <> s.advertiser_id
      RETURNING s.pos`;

    // Each row is compared with the state just before it: the stored observation for the first
    // row of an identity in this batch, the previous row of the same identity otherwise.
    await tx`
      CREATE TEMP TABLE classified ON COMMIT DROP AS
      SELECT s.pos, s.ingest_seq, s.creative_id, s.seen_on, s.landing_domain,
             s.advertiser_id, s.advertiser_name, s.country,
             CASE
               WHEN s.previous_pos IS NOT NULL THEN
                 CASE WHEN (s.advertiser_name, s.country) = (s.previous_name, s.previous_country)
                      THEN 'unchanged' ELSE 'updated' END
               WHEN o.creative_id IS NULL THEN 'new'
               WHEN (s.advertiser_name, s.country) = (o.advertiser_name, o.country) THEN 'unchanged'
               ELSE 'updated'
             END AS status
      FROM (
        SELECT staged.*,
               lag(pos) OVER same_identity AS previous_pos,
               lag(advertiser_name) OVER same_identity AS previous_name,
               lag(country) OVER same_identity AS previous_country
        FROM staged
        WINDOW same_identity AS (PARTITION BY creative_id, seen_on, landing_domain ORDER BY pos)
      ) s
      LEFT JOIN observations o
        ON (o.creative_id, o.seen_on, o.landing_domain) = (s.creative_id, s.seen_on, s.landing_domain)`;
    const statuses = await tx<{ status: RowStatus; count: number }[]>`
      SELECT status, count(*)::integer AS count FROM classified GROUP BY status`;

    // The net change per identity: the values of its last row, ingested at its last changing row.
    await tx`
      CREATE TEMP TABLE changes ON COMMIT DROP AS
      SELECT DISTINCT ON (creative_id, seen_on, landing_domain)
             creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq,
             date_trunc('month', seen_on::timestamp)::date AS month
      FROM classified
      WHERE status <> 'unchanged'
      ORDER BY creative_id, seen_on, landing_domain, pos DESC`;

    await applyChanges(tx);
    return {
      counts: countStatuses(statuses),
      rejects: disowned
        .map(({ pos }) => ({ index: pos, reason: 'creative already tied to another identifier' }))
        .sort((a, b) => a.index - b.index),
    };
  });
}

/**
 * Writes the batch's net changes and grows every aggregate by them. The aggregates count
 * members of presence sets (creative × domain, creative × month), so each step first counts the
 * members this batch adds, then records them. Updated observations already lie inside every
 * stored span and set; they only compete for the identifier's current name and country.
 */
async function applyChanges(tx: postgres.TransactionSql<{}>): Promise<void> {
  await tx`
    INSERT INTO observations AS o
      (creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq)
    SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country, ingest_seq
    FROM changes
    ON CONFLICT (creative_id, seen_on, landing_domain) DO UPDATE
    SET advertiser_name = EXCLUDED.advertiser_name,
        country = EXCLUDED.country,
        ingest_seq = EXCLUDED.ingest_seq`;

  // Identifier × landing domain.
  await tx`
    CREATE TEMP TABLE pair_changes ON COMMIT DROP AS
    SELECT ch.advertiser_id, ch.landing_domain,
           count(DISTINCT ch.creative_id) FILTER (WHERE NOT EXISTS (
             SELECT 1 FROM creative_domains cd
             WHERE cd.creative_id = ch.creative_id AND cd.landing_domain = ch.landing_domain
           ))::integer AS creatives,
           min(ch.seen_on) AS first_seen,
           max(ch.seen_on) AS last_seen,
           NOT EXISTS (
             SELECT 1 FROM identifier_domains i
             WHERE i.advertiser_id = ch.advertiser_id AND i.landing_domain = ch.landing_domain
           ) AS new_pair
    FROM changes ch
    GROUP BY ch.advertiser_id, ch.landing_domain`;
  await tx`
    INSERT INTO creative_domains (creative_id, landing_domain)
    SELECT DISTINCT creative_id, landing_domain FROM changes
    ON CONFLICT DO NOTHING`;
  await tx`
    INSERT INTO identifier_domains AS i (advertiser_id, landing_domain, creatives, first_seen, last_seen)
    SELECT advertiser_id, landing_domain, creatives, first_seen, last_seen FROM pair_changes
    ON CONFLICT (advertiser_id, landing_domain) DO UPDATE
    SET creatives = i.creatives + EXCLUDED.creatives,
        first_seen = least(i.first_seen, EXCLUDED.first_seen),
        last_seen = greatest(i.last_seen, EXCLUDED.last_seen)
    WHERE EXCLUDED.creatives > 0
       OR EXCLUDED.first_seen < i.first_seen
       OR EXCLUDED.last_seen > i.last_seen`;
  await tx`
    INSERT INTO landing_domain_stats AS d (domain, advertisers)
    SELECT landing_domain, count(*) FROM pair_changes WHERE new_pair GROUP BY landing_domain
    ON CONFLICT (domain) DO UPDATE SET advertisers = d.advertisers + EXCLUDED.advertisers`;

  // Identifier × calendar month.
  await tx`
    CREATE TEMP TABLE month_changes ON COMMIT DROP AS
    SELECT ch.advertiser_id, ch.month,
           count(DISTINCT ch.creative_id) FILTER (WHERE NOT EXISTS (
             SELECT 1 FROM creative_months cm
             WHERE cm.creative_id = ch.creative_id AND cm.month = ch.month
           ))::integer AS creatives
    FROM changes ch
    GROUP BY ch.advertiser_id, ch.month`;
  await tx`
    INSERT INTO creative_months (creative_id, month)
    SELECT DISTINCT creative_id, month FROM changes
    ON CONFLICT DO NOTHING`;
  await tx`
    INSERT INTO identifier_months AS m (advertiser_id, month, creatives)
    SELECT advertiser_id, month, creatives FROM month_changes WHERE creatives > 0
    ON CONFLICT (advertiser_id, month) DO UPDATE SET creatives = m.creatives + EXCLUDED.creatives`;
  await tx`
    INSERT INTO identifier_month_domains (advertiser_id, month, landing_domain)
    SELECT DISTINCT advertiser_id, month, landing_domain FROM changes
    ON CONFLICT DO NOTHING`;

  // Identifier totals and current name. Every change carries a higher ingest_seq than anything
  // stored, so the identifier's most recent observation is either the stored one or the latest
  // change, whichever has the later (seen_on, ingest_seq).
  await tx`
    WITH latest AS (
      SELECT DISTINCT ON (advertiser_id) advertiser_id, advertiser_name, country, seen_on, ingest_seq
      FROM changes
      ORDER BY advertiser_id, seen_on DESC, ingest_seq DESC
    ), span AS (
      SELECT advertiser_id, min(seen_on) AS first_seen, max(seen_on) AS last_seen
      FROM changes GROUP BY advertiser_id
    ), claimed AS (
      SELECT owner AS advertiser_id, count(*)::integer AS creatives
      FROM claims WHERE unclaimed GROUP BY owner
    ), paired AS (
      SELECT advertiser_id, count(*)::integer AS landing_domains
      FROM pair_changes WHERE new_pair GROUP BY advertiser_id
    )
    INSERT INTO identifiers AS i
      (advertiser_id, name, country, name_seen_on, name_ingest_seq, creatives, landing_domains, first_seen, last_seen)
    SELECT l.advertiser_id, l.advertiser_name, l.country, l.seen_on, l.ingest_seq,
           coalesce(c.creatives, 0), coalesce(p.landing_domains, 0), s.first_seen, s.last_seen
    FROM latest l
    JOIN span s USING (advertiser_id)
    LEFT JOIN claimed c USING (advertiser_id)
    LEFT JOIN paired p USING (advertiser_id)
    ON CONFLICT (advertiser_id) DO UPDATE
    SET creatives = i.creatives + EXCLUDED.creatives,
        landing_domains = i.landing_domains + EXCLUDED.landing_domains,
        first_seen = least(i.first_seen, EXCLUDED.first_seen),
        last_seen = greatest(i.last_seen, EXCLUDED.last_seen),
        name = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                    THEN EXCLUDED.name ELSE i.name END,
        country = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                       THEN EXCLUDED.country ELSE i.country END,
        name_seen_on = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                            THEN EXCLUDED.name_seen_on ELSE i.name_seen_on END,
        name_ingest_seq = CASE WHEN (EXCLUDED.name_seen_on, EXCLUDED.name_ingest_seq) > (i.name_seen_on, i.name_ingest_seq)
                               THEN EXCLUDED.name_ingest_seq ELSE i.name_ingest_seq END`;
}
