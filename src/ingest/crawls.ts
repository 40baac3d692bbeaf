import { rootDomain } from '../contract/root-domain.ts';
import type { Sql } from '../data/client.ts';
import {
  type BatchOutcome,
  countStatuses,
  type IngestKind,
  type IngestOptions,
  type IngestSummary,
  ingestInBatches,
  type Records,
  type RowStatus,
} from './batches.ts';
import type { Connection } from './copy.ts';
import { reject, requiredText, utcTimestamp } from './fields.ts';

/** The fields of a crawl record, as named in files. */
export const CRAWL_FIELDS = ['domain', 'crawled_at'] as const;

const CRAWLS_LOCK = 7_310_002;

/**
 * Loads crawl records: `domain` (any URL or host, reduced to its root domain) crawled at
 * `crawled_at` (UTC; see utcTimestamp). Only the latest crawl of a domain is kept: a record later
 * than every earlier one is "updated" (or "new" for a domain never crawled), any other "unchanged".
 */
export async function ingestCrawls(sql: Sql, records: Records, options: IngestOptions = {}): Promise<IngestSummary> {
  return ingestInBatches(sql, records, options, CRAWLS);
}

const CRAWLS: IngestKind = {
  lock: CRAWLS_LOCK,
  tables: {
    ingest_crawls_staged: `
      pos        integer NOT NULL,
      domain     text COLLATE "C" NOT NULL,
      crawled_at timestamp NOT NULL`,
  },
  columns: ['pos', 'domain', 'crawled_at'],
  validate: validateCrawl,
  apply: applyCrawls,
};

/** A root domain and a `YYYY-MM-DD HH:MM:SS` hold nothing COPY must escape. */
function validateCrawl(record: Record<string, unknown>): string {
  const domain = rootDomain(requiredText(record, 'domain'));
  if (domain === null) reject('domain has no registrable domain');
  return `${domain}\t${utcTimestamp(record, 'crawled_at')}`;
}

async function applyCrawls(connection: Connection): Promise<BatchOutcome> {
  // Every CTE reads the crawls as they were before this statement, so each row is compared
  // with the stored crawl and the rows before it in the batch.
  const statuses = await connection<{ status: RowStatus; count: number }[]>`
    WITH classified AS (
      SELECT b.crawled_at,
             greatest(c.last_crawled, max(b.crawled_at) OVER earlier_rows) AS latest_before
      FROM ingest_crawls_staged b
      LEFT JOIN crawls c ON c.domain = b.domain
      WINDOW earlier_rows AS (PARTITION BY b.domain ORDER BY b.pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
    ), saved AS (
      INSERT INTO crawls AS c (domain, last_crawled)
      SELECT domain, max(crawled_at) FROM ingest_crawls_staged GROUP BY domain
      ON CONFLICT (domain) DO UPDATE SET last_crawled = EXCLUDED.last_crawled
      WHERE EXCLUDED.last_crawled > c.last_crawled
    )
    SELECT CASE
             WHEN latest_before IS NULL THEN 'new'
             WHEN crawled_at > latest_before THEN 'updated'
             ELSE 'unchanged'
           END AS status,
           count(*)::integer AS count
    FROM classified
    GROUP BY 1`;
  return { counts: countStatuses(statuses), rejects: [] };
}
