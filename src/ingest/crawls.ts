import type { Sql } from '../db/client.ts';
import { rootDomain } from '../domain/root-domain.ts';
import {
  beginBatch,
  countStatuses,
  ingestInBatches,
  type BatchOutcome,
  type IngestOptions,
  type IngestSummary,
  type Records,
  type RowStatus,
} from './batches.ts';
import { reject, requiredText, utcTimestamp } from './fields.ts';

interface CrawlRow {
  pos: number;
  domain: string;
  crawled_at: string;
}

const CRAWLS_LOCK = 7_310_002;

/**
 * Loads crawl records: `domain` (any URL or host, reduced to its root domain) crawled at
 * `crawled_at` (UTC; see utcTimestamp). Only the latest crawl of a domain is kept: a record later
 * than every earlier one is "updated" (or "new" for a domain never crawled), any other "unchanged".
 */
export async function ingestCrawls(sql: Sql, records: Records, options: IngestOptions = {}): Promise<IngestSummary> {
  return ingestInBatches(records, options.batchSize, validateCrawl, (rows) => applyCrawls(sql, rows));
}

function validateCrawl(record: Record<string, unknown>): CrawlRow {
  const domain = rootDomain(requiredText(record, 'domain'));
  if (domain === null) reject('domain has no registrable domain');
  return { pos: 0, domain, crawled_at: utcTimestamp(record, 'crawled_at') };
}

async function applyCrawls(sql: Sql, rows: CrawlRow[]): Promise<BatchOutcome> {
  rows.forEach((row, index) => (row.pos = index));
  return sql.begin(async (tx) => {
    await beginBatch(tx, CRAWLS_LOCK);
    // Every CTE reads the crawls as they were before this statement, so each row is compared
    // with the stored crawl and the rows before it in the batch.
    const statuses = await tx<{ status: RowStatus; count: number }[]>`
      WITH batch AS (
        SELECT pos, domain, crawled_at
        FROM json_to_recordset(${JSON.stringify(rows)}::text::json)
          AS r(pos integer, domain text COLLATE "C", crawled_at timestamp)
      ), classified AS (
        SELECT b.crawled_at,
               greatest(c.last_crawled, max(b.crawled_at) OVER earlier_rows) AS latest_before
        FROM batch b
        LEFT JOIN crawls c ON c.domain = b.domain
        WINDOW earlier_rows AS (PARTITION BY b.domain ORDER BY b.pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
      ), saved AS (
        INSERT INTO crawls AS c (domain, last_crawled)
        SELECT domain, max(crawled_at) FROM batch GROUP BY domain
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
  });
}
