-- Up to `n` names similar to a query (docs/product-rules.md R15.2, R15.3): most similar first, then
-- by key and name, with their similarity as `score`, none under 0.3. `q` is the query's key when
-- pg_trgm can compare it (ASCII), `g` its n-grams (src/contract/search-grams.ts), `words` its words to find one edit away, and
-- `tokens` the tokens to find as they are (src/contract/search-tokens.ts).
--
-- Candidates first, by word: the names' words one edit from a query's word (they share a variant,
-- db/functions/word_variants.sql) and the query's own tokens; of these, the rarest, until their
-- names would pass 1,000, always at least the rarest one; each token's names counted
-- and read only up to that many. A name that only shares a word as common as a legal form with
-- the query is not among them unless that is all the query has: the work follows the query's
-- rarest words, not the number of names. Then each candidate's similarity: the better of its
-- key's trigrams (pg_trgm) and the share of n-grams it has in common with the query (none when
-- either side has none), as a real.
-- Tables are named without a schema: a connection whose search_path starts with `sandbox` reads
-- the sandbox's.
CREATE OR REPLACE FUNCTION similar_advertiser_names(q text, g integer[], words text[], tokens text[], n integer)
RETURNS TABLE (name text, score real)
-- A few rows, not the planner's default thousand, for which it would join every name by hash.
LANGUAGE sql STABLE ROWS 10 AS $$
  WITH matched AS (
    SELECT v.word AS token
      FROM name_word_variants v
     WHERE v.variant IN (SELECT word_variants(w) FROM unnest(words) w)
    UNION
    SELECT t FROM unnest(tokens) t
  ),
  counted AS (
    SELECT m.token,
           (SELECT count(*) FROM (SELECT FROM advertiser_name_tokens p WHERE p.token = m.token LIMIT 1001) c) AS names
      FROM matched m
  ),
  chosen AS (
    SELECT token
      FROM (SELECT token,
                   sum(names) OVER (ORDER BY names, token) AS upto,
                   row_number() OVER (ORDER BY names, token) AS nth
              FROM counted
             WHERE names > 0) c
     WHERE upto <= 1000 OR nth = 1
  ),
  candidates AS (
    SELECT DISTINCT p.name
      FROM chosen c
      CROSS JOIN LATERAL (SELECT p.name FROM advertiser_name_tokens p WHERE p.token = c.token LIMIT 1000) p
  )
  SELECT a.name, s.score
    FROM candidates c
    JOIN advertiser_names a ON a.name = c.name
    CROSS JOIN LATERAL (SELECT count(*) AS shared FROM unnest(a.search_grams) x WHERE x = ANY (g)) common
    CROSS JOIN LATERAL (
      SELECT greatest(
               similarity(a.search_key, q),
               common.shared::real / (cardinality(a.search_grams) + cardinality(g) - common.shared)::real
             ) AS score
    ) s
   WHERE s.score >= 0.3::real
   ORDER BY s.score DESC, a.search_key, a.name
   LIMIT n
$$;
