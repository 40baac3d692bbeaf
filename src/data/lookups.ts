import type { components } from '../../generated/api-types.ts';
import { maxItemsOf, profileOf } from '../contract/response-schemas.ts';
import type { Sql } from './client.ts';

/**
 * The five read queries. Each is one parameterized SQL statement (one round trip, one snapshot)
 * over the aggregates that ingest maintains (migrations/00002_observations), reading rows in
 * proportion to the answer. Each returns exactly the values of docs/product-rules.md §2 (on the
 * data model of §1), in its orders, as an object whose keys are the fields of the response schema
 * in openapi.yaml (without the credits fields), or null when the advertiser or domain does not exist (404).
 *
 * Names are matched byte for byte; `domain` must already be a normalized root domain
 * (rootDomain). Dates are formatted by PostgreSQL from `date` and `timestamp without time zone`
 * values, so no time zone can shift them.
 *
 * A creative belongs to exactly one identifier, so distinct creatives over several identifiers
 * are the sum of each identifier's distinct creatives; distinct landing domains are not, and are
 * counted over the union.
 */

type Schemas = components['schemas'];

/** The credits fields of a charged body: the billing adds them, the lookups never know them. */
type CreditsFields = 'credits_charged' | 'credits_remaining';

export type AdvertiserSummary = Omit<Schemas['AdvertiserSummary'], CreditsFields>;
export type DomainSummary = Omit<Schemas['DomainSummary'], CreditsFields>;
export type AdvertiserHistory = Omit<Schemas['AdvertiserHistory'], CreditsFields>;
export type AdvertiserLandingDomains = Omit<Schemas['AdvertiserLandingDomains'], CreditsFields>;
export type BrandBidReport = Omit<Schemas['BrandBidReport'], CreditsFields>;

/** The caps of the capped lists: each response schema's `maxItems`. */
export const LANDING_DOMAINS_CAP = maxItemsOf('AdvertiserLandingDomains', 'landing_domains');
export const BRAND_BID_CAP = maxItemsOf('BrandBidReport', 'advertisers');
/** The history window: the current month and the ones before it, as many as `months` may hold. */
export const HISTORY_MONTHS = maxItemsOf('AdvertiserHistory', 'months');

/**
 * Ingest never stores a name with NUL or a lone surrogate, and the driver would send the latter
 * as U+FFFD, which could match a different stored name; such a name names nobody.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters, on purpose
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorable = (name: string): boolean => !UNSTORABLE.test(name);

/** The advertiser summary of all identifiers whose current name is `name`. */
export async function getAdvertiserSummary(sql: Sql, name: string): Promise<AdvertiserSummary | null> {
  if (UNSTORABLE.test(name)) return null;
  const [row] = await sql<
    {
      advertiser_ids: string[];
      creatives: number;
      landing_domains: number;
      last_seen: string;
      country: string;
      advertiser_type: Schemas['AdvertiserType'] | null;
    }[]
  >`
    WITH ids AS (
      SELECT advertiser_id, country, creatives, last_seen FROM identifiers WHERE name = ${name}
    )
    SELECT
      (SELECT json_agg(advertiser_id ORDER BY advertiser_id) FROM ids) AS advertiser_ids,
      (SELECT sum(creatives) FROM ids)::integer AS creatives,
      (SELECT count(DISTINCT d.landing_domain)
         FROM identifier_domains d JOIN ids USING (advertiser_id))::integer AS landing_domains,
      (SELECT to_char(max(last_seen), 'YYYY-MM-DD') FROM ids) AS last_seen,
      (SELECT country FROM ids ORDER BY creatives DESC, last_seen DESC, advertiser_id LIMIT 1) AS country,
      (SELECT advertiser_type FROM labels WHERE advertiser_name = ${name}) AS advertiser_type
    WHERE EXISTS (SELECT 1 FROM ids)`;
  if (row === undefined) return null;
  return {
    advertiser: name,
    advertiser_ids: row.advertiser_ids,
    creatives: row.creatives,
    landing_domains: row.landing_domains,
    last_seen: row.last_seen,
    country: row.country,
    advertiser_type: row.advertiser_type,
  };
}

/** The domain summary; the domain exists when it has an observation or a crawl. */
export async function getDomainSummary(sql: Sql, domain: string): Promise<DomainSummary | null> {
  const [row] = await sql<{ advertisers: number | null; last_crawled: string | null }[]>`
    SELECT s.advertisers, to_char(c.last_crawled, 'YYYY-MM-DD HH24:MI:SS') AS last_crawled
    FROM (SELECT ${domain}::text COLLATE "C" AS domain) q
    LEFT JOIN landing_domain_stats s ON s.domain = q.domain
    LEFT JOIN crawls c ON c.domain = q.domain
    WHERE s.domain IS NOT NULL OR c.domain IS NOT NULL`;
  if (row === undefined) return null;
  return {
    domain,
    advertisers: row.advertisers ?? 0,
    last_crawled: row.last_crawled,
    has_data: row.advertisers !== null,
  };
}

/**
 * Month by month, oldest first, from window_start to the current UTC month: distinct creatives
 * and distinct landing domains over all identifiers of the name, zeros included. window_start is
 * the later of the nominal start (HISTORY_MONTHS - 1 months before the current one) and the
 * name's first observed month; it never passes the current month, so at least one month is returned.
 */
export async function getAdvertiserHistory(sql: Sql, name: string, now: Date): Promise<AdvertiserHistory | null> {
  if (UNSTORABLE.test(name)) return null;
  const currentMonth = firstOfMonth(now, 0);
  const nominalStart = firstOfMonth(now, -(HISTORY_MONTHS - 1));
  const [row] = await sql<{ window_start: string; months: Schemas['HistoryMonth'][] }[]>`
    WITH ids AS (
      SELECT advertiser_id, first_seen FROM identifiers WHERE name = ${name}
    ), bounds AS (
      SELECT greatest(${nominalStart}::date,
                      least(date_trunc('month', min(first_seen)::timestamp)::date, ${currentMonth}::date)) AS start
      FROM ids
      HAVING count(*) > 0
    ), months AS (
      SELECT generate_series(start::timestamp, ${currentMonth}::timestamp, interval '1 month')::date AS month
      FROM bounds
    ), month_creatives AS (
      SELECT m.month, sum(m.creatives) AS creatives
      FROM identifier_months m JOIN ids USING (advertiser_id)
      WHERE m.month BETWEEN (SELECT start FROM bounds) AND ${currentMonth}::date
      GROUP BY m.month
    ), month_domains AS (
      SELECT md.month, count(DISTINCT md.landing_domain) AS domains
      FROM identifier_month_domains md JOIN ids USING (advertiser_id)
      WHERE md.month BETWEEN (SELECT start FROM bounds) AND ${currentMonth}::date
      GROUP BY md.month
    )
    SELECT to_char(b.start, 'YYYY-MM-DD') AS window_start,
           json_agg(json_build_object(
             'month', to_char(months.month, 'YYYY-MM'),
             'creatives', coalesce(c.creatives, 0),
             'domains', coalesce(d.domains, 0)
           ) ORDER BY months.month) AS months
    FROM bounds b
    CROSS JOIN months
    LEFT JOIN month_creatives c USING (month)
    LEFT JOIN month_domains d USING (month)
    GROUP BY b.start`;
  if (row === undefined) return null;
  return {
    advertiser: name,
    window_start: row.window_start,
    months: row.months.map(({ month, creatives, domains }) => ({ month, creatives, domains })),
  };
}

/**
 * The name's landing domains: distinct creatives and latest seen_on per domain over all its
 * identifiers, ordered by creatives descending, last_seen descending, domain ascending, at most
 * `cap` of them; landing_domain_count is the full total.
 */
export async function getAdvertiserLandingDomains(
  sql: Sql,
  name: string,
  cap = LANDING_DOMAINS_CAP,
): Promise<AdvertiserLandingDomains | null> {
  if (UNSTORABLE.test(name)) return null;
  const [row] = await sql<{ landing_domain_count: number; landing_domains: Schemas['LandingDomain'][] }[]>`
    WITH ids AS (
      SELECT advertiser_id FROM identifiers WHERE name = ${name}
    ), per_domain AS (
      SELECT d.landing_domain AS domain, sum(d.creatives) AS creatives, max(d.last_seen) AS last_seen
      FROM identifier_domains d JOIN ids USING (advertiser_id)
      GROUP BY d.landing_domain
    ), listed AS (
      SELECT domain, creatives, last_seen
      FROM per_domain
      ORDER BY creatives DESC, last_seen DESC, domain
      LIMIT ${cap}
    )
    SELECT (SELECT count(*) FROM per_domain)::integer AS landing_domain_count,
           coalesce((SELECT json_agg(json_build_object(
                              'domain', domain,
                              'creatives', creatives,
                              'last_seen', to_char(last_seen, 'YYYY-MM-DD')
                            ) ORDER BY creatives DESC, last_seen DESC, domain)
                     FROM listed), '[]'::json) AS landing_domains
    WHERE EXISTS (SELECT 1 FROM ids)`;
  if (row === undefined) return null;
  const landingDomains = row.landing_domains.map(({ domain, creatives, last_seen }) => ({
    domain,
    creatives,
    last_seen,
  }));
  return {
    advertiser: name,
    landing_domain_count: row.landing_domain_count,
    landing_domains: landingDomains,
    truncated: landingDomains.length < row.landing_domain_count,
  };
}

/**
 * One row per identifier landing on the domain (its distinct creatives there, first and last
 * seen_on there, and its landing-domain footprint over all its observations), ordered by
 * creatives descending, last_seen descending, advertiser_id ascending, at most `cap` of them;
 * advertiser_count is the full total. A crawled domain without observations has no rows.
 */
export async function getBrandBidReport(sql: Sql, domain: string, cap = BRAND_BID_CAP): Promise<BrandBidReport | null> {
  const [row] = await sql<
    { advertiser_count: number; advertisers: Omit<Schemas['BrandBidAdvertiser'], 'profile'>[] }[]
  >`
    WITH target AS (
      SELECT q.domain, coalesce(s.advertisers, 0) AS advertiser_count
      FROM (SELECT ${domain}::text COLLATE "C" AS domain) q
      LEFT JOIN landing_domain_stats s ON s.domain = q.domain
      WHERE s.domain IS NOT NULL OR EXISTS (SELECT 1 FROM crawls c WHERE c.domain = q.domain)
    ), listed AS (
      SELECT i.name, d.advertiser_id, d.creatives, d.first_seen, d.last_seen, i.landing_domains
      FROM identifier_domains d
      JOIN identifiers i USING (advertiser_id)
      WHERE d.landing_domain = ${domain} AND EXISTS (SELECT 1 FROM target)
      ORDER BY d.creatives DESC, d.last_seen DESC, d.advertiser_id
      LIMIT ${cap}
    )
    SELECT t.advertiser_count,
           coalesce((SELECT json_agg(json_build_object(
                              'advertiser', name,
                              'advertiser_id', advertiser_id,
                              'creatives', creatives,
                              'first_seen', to_char(first_seen, 'YYYY-MM-DD'),
                              'last_seen', to_char(last_seen, 'YYYY-MM-DD'),
                              'landing_domain_count', landing_domains
                            ) ORDER BY creatives DESC, last_seen DESC, advertiser_id)
                     FROM listed), '[]'::json) AS advertisers
    FROM target t`;
  if (row === undefined) return null;
  return {
    domain,
    advertiser_count: row.advertiser_count,
    advertisers: row.advertisers.map((a) => ({
      advertiser: a.advertiser,
      advertiser_id: a.advertiser_id,
      creatives: a.creatives,
      first_seen: a.first_seen,
      last_seen: a.last_seen,
      landing_domain_count: a.landing_domain_count,
      profile: profileOf(a.landing_domain_count),
    })),
  };
}

/** `YYYY-MM-01` of the UTC month `offset` months from the one holding `now`. */
function firstOfMonth(now: Date, offset: number): string {
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + offset;
  return `${String(Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}-01`;
}
