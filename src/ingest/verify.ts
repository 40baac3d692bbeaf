import { searchGrams } from '../contract/search-grams.ts';
import { SEARCH_KEY_VERSION, searchKey } from '../contract/search-key.ts';
import { nameTokens } from '../contract/search-tokens.ts';
import type { Sql } from '../data/client.ts';

/**
 * Each aggregate table as stored, next to the same rows recomputed from the observations.
 * Full scans: an operator's and the tests' check, never a request path.
 */
const CHECKS: Record<string, { stored: string; derived: string }> = {
  identifiers: {
    stored: `SELECT advertiser_id, name, country, name_seen_on, name_ingest_seq,
                    creatives, landing_domains, first_seen, last_seen
             FROM identifiers`,
    derived: `SELECT latest.advertiser_id, latest.advertiser_name, latest.country, latest.seen_on, latest.ingest_seq,
                     totals.creatives, totals.landing_domains, totals.first_seen, totals.last_seen
              FROM (SELECT DISTINCT ON (advertiser_id) advertiser_id, advertiser_name, country, seen_on, ingest_seq
                    FROM observations ORDER BY advertiser_id, seen_on DESC, ingest_seq DESC) latest
              JOIN (SELECT advertiser_id, count(DISTINCT creative_id)::integer AS creatives,
                           count(DISTINCT landing_domain)::integer AS landing_domains,
                           min(seen_on) AS first_seen, max(seen_on) AS last_seen
                    FROM observations GROUP BY advertiser_id) totals USING (advertiser_id)`,
  },
  identifier_domains: {
    stored: 'SELECT advertiser_id, landing_domain, creatives, first_seen, last_seen FROM identifier_domains',
    derived: `SELECT advertiser_id, landing_domain, count(DISTINCT creative_id)::integer, min(seen_on), max(seen_on)
              FROM observations GROUP BY advertiser_id, landing_domain`,
  },
  identifier_months: {
    stored: 'SELECT advertiser_id, month, creatives FROM identifier_months',
    derived: `SELECT advertiser_id, date_trunc('month', seen_on::timestamp)::date, count(DISTINCT creative_id)::integer
              FROM observations GROUP BY 1, 2`,
  },
  identifier_month_domains: {
    stored: 'SELECT advertiser_id, month, landing_domain FROM identifier_month_domains',
    derived:
      `SELECT DISTINCT advertiser_id, date_trunc('month', ` +
      `seen_on::timestamp)::date, landing_domain FROM observations`,
  },
  landing_domain_stats: {
    stored: 'SELECT domain, advertisers FROM landing_domain_stats',
    derived: `SELECT landing_domain, count(DISTINCT advertiser_id)::integer FROM observations GROUP BY landing_domain`,
  },
  // Kept by ingest and triggers (migrations/00014_similar-names-and-domains, 00025): each name an
  // identifier carries, and each first label of a landing domain, once. The names' search keys
  // are checked apart (checkSearchKeys): SQL cannot compute them.
  advertiser_names: {
    stored: 'SELECT name FROM advertiser_names',
    derived: `SELECT DISTINCT advertiser_name
              FROM (SELECT DISTINCT ON (advertiser_id) advertiser_name
                    FROM observations ORDER BY advertiser_id, seen_on DESC, ingest_seq DESC) latest`,
  },
  // Kept by triggers from the names' stored tokens (db/functions/advertiser_name_tokens_follow_names.sql).
  advertiser_name_tokens: {
    stored: 'SELECT token, name FROM advertiser_name_tokens',
    derived: 'SELECT DISTINCT t, name FROM advertiser_names CROSS JOIN LATERAL unnest(search_tokens) t',
  },
  landing_domain_stems: {
    stored: 'SELECT stem FROM landing_domain_stems',
    derived: `SELECT DISTINCT split_part(landing_domain, '.', 1) FROM observations`,
  },
};

/**
 * Recomputes every aggregate from the observations and returns one line per aggregate table
 * that differs (empty when all agree exactly), and one when a creative's observations name more
 * than one identifier (a creative has one owner, recorded in each of its observations).
 */
export async function checkAggregates(sql: Sql): Promise<string[]> {
  const problems: string[] = [];
  const [{ shared }] = await sql<{ shared: number }[]>`
    SELECT count(*)::integer AS shared
    FROM (SELECT creative_id FROM observations GROUP BY creative_id HAVING count(DISTINCT advertiser_id) > 1) c`;
  if (shared > 0) problems.push(`observations: ${shared} creative(s) tied to more than one identifier`);
  for (const [table, { stored, derived }] of Object.entries(CHECKS)) {
    const [{ missing, extra }] = await sql.unsafe<{ missing: number; extra: number }[]>(`
      SELECT (SELECT count(*) FROM ((${derived}) EXCEPT ALL (${stored})) m) AS missing,
             (SELECT count(*) FROM ((${stored}) EXCEPT ALL (${derived})) e) AS extra`);
    if (missing > 0 || extra > 0)
      problems.push(`${table}: ${missing} row(s) missing or wrong, ${extra} row(s) extra or wrong`);
  }
  const wrongKeys = await checkSearchKeys(sql);
  if (wrongKeys > 0) problems.push(`advertiser_names: ${wrongKeys} search key(s) not those of their names`);
  return problems;
}

const jsonOrNull = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** Names whose stored search key, n-grams or tokens are not those this version computes, or of another version. */
async function checkSearchKeys(sql: Sql): Promise<number> {
  let wrong = 0;
  const names = sql<
    {
      name: string;
      search_key: string | null;
      search_grams: string | null;
      search_tokens: string | null;
      key_version: number | null;
    }[]
  >`SELECT name, search_key, array_to_json(search_grams)::text AS search_grams,
           array_to_json(search_tokens)::text AS search_tokens, key_version
      FROM advertiser_names`;
  for await (const rows of names.cursor(10_000)) {
    for (const { name, search_key, search_grams, search_tokens, key_version } of rows) {
      const key = searchKey(name);
      if (
        key_version !== SEARCH_KEY_VERSION ||
        search_key !== key ||
        search_grams !== jsonOrNull(searchGrams(key)) ||
        search_tokens !== JSON.stringify(nameTokens(key))
      )
        wrong += 1;
    }
  }
  return wrong;
}
