import type { components } from '../../generated/api-types.ts';
import { maxItemsOf } from '../contract/response-schemas.ts';
import { hasTrigrams, searchGrams } from '../contract/search-grams.ts';
import { searchKey } from '../contract/search-key.ts';
import { queryTokens } from '../contract/search-tokens.ts';
import type { Sql } from './client.ts';
import { isStorable } from './lookups.ts';

/**
 * The advertiser search and the "did you mean" suggestions (docs/product-rules.md §15): equal keys
 * and prefixes over the stored search keys of migrations/00025_search-keys-stored (the key of q
 * computed as ingest computed the names'), similar names through their tokens
 * (db/functions/similar_advertiser_names.sql) and similar domains (db/functions/similar_landing_domains.sql).
 * Each branch stops after
 * `limit + 1` names, so the work follows the answer, not the number of identifiers.
 */

type Schemas = components['schemas'];

export type AdvertiserSearch = Omit<Schemas['AdvertiserSearch'], 'credits_charged' | 'credits_remaining'>;
type AdvertiserMatch = Schemas['AdvertiserMatch'];

/** The most names a search answers: the response schema's `maxItems`. */
export const SEARCH_CAP = maxItemsOf('AdvertiserSearch', 'advertisers');

/** The most suggestions a data 404 carries. */
export const SUGGESTIONS_CAP = 5;

/** The largest code point: a key prefix `k` covers the keys from `k` to `k` followed by it. */
const LAST_CODE_POINT = String.fromCodePoint(0x10ffff);

const MATCHES = [
  'exact',
  'case_insensitive',
  'prefix',
  'similar',
] as const satisfies readonly AdvertiserMatch['match'][];

/** The names that match `q`, best first, at most `limit`, and whether more matched. */
export async function searchAdvertisers(sql: Sql, q: string, limit = SEARCH_CAP): Promise<AdvertiserSearch> {
  // A name with NUL or a lone surrogate is never stored (data/lookups.ts), so such a q matches
  // nothing exactly; its key drops the NUL, which PostgreSQL cannot take in a text value.
  const exact = isStorable(q) ? q : null;
  const key = searchKey(q.replaceAll('\u0000', ''));
  const grams = searchGrams(key);
  const { words, tokens, parts } = queryTokens(key);
  // Outside ASCII only the n-grams compare: the key gives pg_trgm nothing to look up.
  const trigramKey = hasTrigrams(key) ? key : null;
  // A q of marks or invisible characters only has an empty key, which would be a prefix of all.
  const keyed = key !== '';
  const rows = await sql<
    {
      advertiser: string;
      rank: number;
      advertiser_ids: string[];
      creatives: number;
      country: string;
      last_seen: string;
    }[]
  >`
    WITH prefixed AS (
      SELECT search_key AS k, name
        FROM advertiser_names
       WHERE ${keyed} AND search_key >= ${key} AND search_key < ${key + LAST_CODE_POINT}
       ORDER BY search_key, name
       LIMIT ${limit + 1}
    ),
    matches AS (
      SELECT name, 0 AS rank, 1::real AS score FROM advertiser_names WHERE name = ${exact}
      UNION ALL
      SELECT name, CASE WHEN k = ${key} THEN 1 ELSE 2 END, 1::real FROM prefixed
      UNION ALL
      -- Similar names rank after every prefix match: when those already fill the answer, the
      -- similarity search, the costly branch, is skipped (a one-time filter, evaluated first).
      -- It asks for as many more names as the prefix branch found, which may be among them.
      SELECT name, 3, score
        FROM similar_advertiser_names(
               ${trigramKey}::text, ${grams === null ? null : `{${grams.join(',')}}`}::integer[],
               string_to_array(${words.join(' ')}::text, ' '), string_to_array(${tokens.join(' ')}::text, ' '),
               ${JSON.stringify(parts)}::text::json,
               ${limit + 1} + (SELECT count(*) FROM prefixed)::integer)
       WHERE ${keyed} AND (SELECT count(*) FROM prefixed) <= ${limit}
    ),
    best AS (
      SELECT m.name, min(m.rank) AS rank, max(m.score) AS score, a.search_key AS k
        FROM matches m JOIN advertiser_names a ON a.name = m.name
       GROUP BY m.name, a.search_key
       ORDER BY min(m.rank), max(m.score) DESC, a.search_key, m.name
       LIMIT ${limit + 1}
    )
    SELECT best.name AS advertiser, best.rank, merged.*
      FROM best CROSS JOIN LATERAL (
        SELECT json_agg(advertiser_id ORDER BY advertiser_id) AS advertiser_ids,
               sum(creatives)::integer AS creatives,
               (array_agg(country ORDER BY creatives DESC, last_seen DESC, advertiser_id))[1] AS country,
               to_char(max(last_seen), 'YYYY-MM-DD') AS last_seen
          FROM identifiers WHERE identifiers.name = best.name
      ) merged
     ORDER BY best.rank, best.score DESC, best.k, best.name`;
  return {
    q,
    advertisers: rows.slice(0, limit).map((row) => ({
      advertiser: row.advertiser,
      match: MATCHES[row.rank],
      advertiser_ids: row.advertiser_ids,
      creatives: row.creatives,
      country: row.country,
      last_seen: row.last_seen,
    })),
    truncated: rows.length > limit,
  };
}

/** Names to suggest for a name no identifier carries: the search's first few. */
export async function similarNames(sql: Sql, name: string): Promise<string[]> {
  if (name.trim() === '') return [];
  const { advertisers } = await searchAdvertisers(sql, name, SUGGESTIONS_CAP);
  return advertisers.map((match) => match.advertiser);
}

/** Root domains with ads that resemble `domain`, a normalized root domain without data; nearest first. */
export async function similarDomains(sql: Sql, domain: string): Promise<string[]> {
  const rows = await sql<{ domain: string }[]>`
    SELECT domain FROM similar_landing_domains(${domain}, ${SUGGESTIONS_CAP})`;
  return rows.map((row) => row.domain);
}
