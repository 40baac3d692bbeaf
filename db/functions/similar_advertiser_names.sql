-- Up to `n` names similar to a query (docs/product-rules.md R15.2, R15.3): most similar first, then
-- by key and name, with their similarity as `score`, none under 0.3. `q` is the query's key when
-- pg_trgm can compare it (ASCII), `g` its n-grams (src/contract/search-grams.ts), `words` its
-- words to find one edit away, `tokens` the tokens to find as they are, and `parts` its words
-- each with its own tokens and n-grams (src/contract/search-tokens.ts).
--
-- Candidates first, by word: the names' words one edit from a query's word (they share a variant,
-- db/functions/word_variants.sql) and the query's own tokens; of these, the rarest, until their
-- names would pass 1,000, always at least the rarest one, whose first 1,000 names are read. A name
-- that only shares a word as common as a legal form with the query is not among them unless that
-- is all the query has: the work follows the query's rarest words, not the number of names.
--
-- Then each candidate's similarity: the better of its key's trigrams (pg_trgm) and the share of
-- n-grams it has in common with the query (none when either side has none), as a real. A query
-- word is common when every token of it is in at least one name in 200 (and 50 names): a legal
-- form, mostly. A name is also compared with the query without its common words, at nine tenths:
-- `Müller 有限会社` finds `Müller` before the many names that only share `有限会社`.
-- Parameters are named as no column is: in SQL, a column of that name would be read instead.
-- Tables are named without a schema: a connection whose search_path starts with `sandbox` reads
-- the sandbox's.
CREATE OR REPLACE FUNCTION similar_advertiser_names(
  q text, g integer[], words text[], tokens text[], parts json, n integer
)
RETURNS TABLE (name text, score real)
-- A few rows, not the planner's default thousand, for which it would join every name by hash.
LANGUAGE sql STABLE ROWS 10 AS $$
  WITH common_names AS (
    SELECT greatest(50, (SELECT reltuples FROM pg_class WHERE oid = 'advertiser_names'::regclass) / 200)::integer AS at
  ),
  -- Each token with the query word it stands for: a word one edit away, or a token of the word.
  matched AS (
    SELECT v.word AS token, q.w AS of_word
      FROM (SELECT w, word_variants(w) AS variant
              FROM unnest(words) w
             -- A word some name has is taken as written: its neighbours would only crowd it out.
             WHERE NOT EXISTS (SELECT FROM advertiser_name_tokens e WHERE e.token = w)) q
      JOIN name_word_variants v ON v.variant = q.variant
    UNION
    SELECT t, p.word
      FROM json_to_recordset(parts) AS p(word text, tokens text[]) CROSS JOIN LATERAL unnest(p.tokens) t
    UNION
    SELECT t, t FROM unnest(tokens) t
  ),
  counted AS (
    SELECT m.token,
           (SELECT count(*)
              FROM (SELECT FROM advertiser_name_tokens p WHERE p.token = m.token
                     LIMIT greatest(1001, (SELECT at FROM common_names) + 1)) c) AS names
      FROM (SELECT DISTINCT token FROM matched) m
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
  -- When even the rarest token is in more than 1,000 names, the names that also have the rarest
  -- token of another of the query's words, rather than the first 1,000 by name.
  rarest AS (
    SELECT m.token, m.of_word, c.names
      FROM matched m JOIN counted c USING (token)
     WHERE c.names > 0
     ORDER BY c.names, m.token, m.of_word
     LIMIT 1
  ),
  second AS (
    SELECT m.token
      FROM matched m JOIN counted c USING (token), rarest r
     WHERE c.names > 0 AND m.of_word <> r.of_word AND m.token <> r.token AND r.names > 1000
     ORDER BY c.names, m.token
     LIMIT 1
  ),
  narrowed AS (
    SELECT name
      FROM (SELECT p.name FROM advertiser_name_tokens p WHERE p.token = (SELECT token FROM rarest)
             INTERSECT
            SELECT p.name FROM advertiser_name_tokens p WHERE p.token = (SELECT token FROM second)) both_words
     LIMIT 1000
  ),
  candidates AS (
    SELECT name FROM narrowed
    UNION
    SELECT p.name
      FROM chosen c
      CROSS JOIN LATERAL (SELECT p.name FROM advertiser_name_tokens p WHERE p.token = c.token LIMIT 1000) p
     WHERE NOT EXISTS (SELECT FROM narrowed)
  ),
  query_parts AS (
    SELECT p.ord, p.word, p.grams,
           coalesce((SELECT min(c.names) FROM counted c WHERE c.token = ANY (p.tokens)), 0)
             >= (SELECT at FROM common_names) AS common
      FROM ROWS FROM (json_to_recordset(parts) AS (word text, tokens text[], grams integer[]))
           WITH ORDINALITY AS p(word, tokens, grams, ord)
  ),
  core AS (
    SELECT CASE WHEN q IS NOT NULL THEN string_agg(word, ' ' ORDER BY ord) FILTER (WHERE NOT common) END AS core_q,
           CASE WHEN g IS NOT NULL THEN
             (SELECT array_agg(DISTINCT x) FROM query_parts r CROSS JOIN LATERAL unnest(r.grams) x WHERE NOT r.common)
           END AS core_g
      FROM query_parts
    HAVING bool_or(common) AND NOT bool_and(common)
  )
  SELECT a.name, s.score
    FROM candidates c
    -- One index probe per candidate (OFFSET 0 keeps the planner from hashing every name instead).
    CROSS JOIN LATERAL (SELECT * FROM advertiser_names a WHERE a.name = c.name OFFSET 0) a
    LEFT JOIN core ON true
    CROSS JOIN LATERAL (SELECT count(*) AS shared FROM unnest(a.search_grams) x WHERE x = ANY (g)) whole
    CROSS JOIN LATERAL (SELECT count(*) AS shared FROM unnest(a.search_grams) x WHERE x = ANY (core.core_g)) part
    CROSS JOIN LATERAL (
      SELECT greatest(
               similarity(a.search_key, q),
               whole.shared::real / (cardinality(a.search_grams) + cardinality(g) - whole.shared)::real,
               0.9::real * greatest(
                 similarity(a.search_key, core.core_q),
                 part.shared::real / (cardinality(a.search_grams) + cardinality(core.core_g) - part.shared)::real
               )
             ) AS score
    ) s
   WHERE s.score >= 0.3::real
   ORDER BY s.score DESC, a.search_key, a.name
   LIMIT n
$$;
