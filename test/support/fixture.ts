import type { Sql } from '../../src/data/client.ts';
import { ingestCrawls, ingestLabels, ingestObservations } from '../../src/ingest/index.ts';
import { createTestApi, type TestApi } from './api.ts';

/** The service's clock in route tests: history windows are computed from this instant. */
export const NOW = new Date('2026-11-22T10:00:00Z');

/**
 * A small hand-made dataset whose every value in the route tests was worked out by hand from
 * docs/product-rules.md §1 and §2, with the traps that make naive counts wrong: one creative seen on two
 * days, two identifiers merged under one name, a tie on creatives for the country, a renamed
 * identifier, a crawl with a time-zone offset, and a domain that was crawled but has no ads.
 */
const o = (
  creative_id: string,
  advertiser_id: string,
  advertiser_name: string,
  country: string,
  landing_url: string,
  seen_on: string,
) => ({ creative_id, advertiser_id, advertiser_name, country, landing_url, seen_on });

export const OBSERVATIONS = [
  o('c1', 'AR100', 'Acme Outdoor GmbH', 'DE', 'https://www.acme-outdoor.com/tents', '2026-10-05'),
  o('c1', 'AR100', 'Acme Outdoor GmbH', 'DE', 'https://acme-outdoor.com/', '2026-10-06'),
  o('c2', 'AR100', 'Acme Outdoor GmbH', 'DE', 'https://shop.acme-outdoor.de/x', '2026-11-02'),
  o('c3', 'AR200', 'Acme Outdoor GmbH', 'AT', 'http://acme-outdoor.com', '2026-11-10'),
  o('c4', 'AR200', 'Acme Outdoor GmbH', 'AT', 'acme-outdoor.com', '2026-11-10'),
  o('c5', 'AR300', 'Clickwave Media Ltd', 'GB', 'https://acme-outdoor.com/promo', '2026-09-01'),
  o('c6', 'AR300', 'Clickwave Media Ltd', 'GB', 'https://other-brand.co.uk/', '2026-09-02'),
  o('c7', 'AR300', 'Clickwave Media Ltd', 'GB', 'https://third.example.org/', '2024-01-15'),
  o('c8', 'AR400', 'Old Name Inc', 'US', 'https://old-name.example.com/', '2025-01-01'),
  o('c9', 'AR400', 'New Name Inc', 'US', 'https://old-name.example.com/', '2025-02-01'),
  o('c10', 'AR500', 'Dormant Ltd', 'IE', 'https://dormant.ie/', '2022-03-03'),
];

export const CRAWLS = [
  { domain: 'https://www.acme-outdoor.com/', crawled_at: '2026-11-18T06:42:10+02:00' },
  { domain: 'acme-outdoor.com', crawled_at: '2026-11-01 00:00:00' },
  { domain: 'quiet-bakery.co.uk', crawled_at: '2026-10-02 13:05:44' },
];

export const LABELS = [{ advertiser_name: 'Acme Outdoor GmbH', advertiser_type: 'direct' }];

export async function loadFixture(sql: Sql): Promise<void> {
  const today = NOW;
  const observations = await ingestObservations(sql, OBSERVATIONS, { today });
  const crawls = await ingestCrawls(sql, CRAWLS, { today });
  const labels = await ingestLabels(sql, LABELS, { today });
  for (const summary of [observations, crawls, labels]) {
    if (summary.rejected > 0) throw new Error(`fixture rejected: ${JSON.stringify(summary.rejects)}`);
  }
}

/** A test API on the fixture dataset (plus `extra` data), and a key holding 1000 credits. */
export async function createFixtureApi(
  extra: (sql: Sql) => Promise<unknown> = async () => {},
): Promise<{ api: TestApi; key: string }> {
  const api = await createTestApi({ now: () => NOW });
  await loadFixture(api.db.sql);
  await extra(api.db.sql);
  const { key } = await api.newKey(1000);
  return { api, key };
}
