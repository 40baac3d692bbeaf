-- Similar names in every script (docs/product-rules.md R15.2).
--
-- pg_trgm extracts trigrams from ASCII letters and digits only on a database whose character
-- classification is `C`: the search key of a Cyrillic, Greek, Arabic, Hebrew, Indic, Thai,
-- Hangul, Japanese or Chinese name gave it nothing, so a misspelling of such a name was never
-- similar to it. A key with letters outside ASCII now has its n-grams stored beside it
-- (search_grams, computed in TypeScript with the key: src/contract/search-grams.ts, part of
-- the key's version, so the names are keyed again after this migration), an ASCII text whose
-- trigram similarity follows the bigrams the keys share. A query with such letters is compared
-- with those; an ASCII one with the keys, as before. The index holds only names with n-grams.
DO $$
DECLARE
  v_schema text;
BEGIN
  FOREACH v_schema IN ARRAY ARRAY['public', 'sandbox'] LOOP
    EXECUTE format($sql$
      ALTER TABLE %1$I.advertiser_names ADD COLUMN search_grams text COLLATE "C";
      CREATE INDEX advertiser_names_by_grams ON %1$I.advertiser_names USING gin (search_grams gin_trgm_ops)
        WITH (gin_pending_list_limit = 256) WHERE search_grams IS NOT NULL;
    $sql$, v_schema);
  END LOOP;
END $$;

DROP FUNCTION similar_advertiser_names(text, integer);

-- Up to `n` names similar to the key `q` (or, when `g` is not null, whose n-grams are similar to
-- `g`, q's n-grams), most similar first, then by key and name, with their similarity as
-- `score`; in bands from 0.6 down to 0.3, as migrations/00026_similarity-bands-exact decides them.
CREATE FUNCTION similar_advertiser_names(q text, g text, n integer)
RETURNS TABLE (name text, score real)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_threshold real;
  v_below real := 2;
  v_found integer := 0;
  v_rows integer;
  v_default text := coalesce(current_setting('pg_trgm.similarity_threshold', true), '0.3');
BEGIN
  FOREACH v_threshold IN ARRAY ARRAY[0.6, 0.45, 0.3]::real[] LOOP
    PERFORM set_config('pg_trgm.similarity_threshold', (v_threshold - 0.001)::text, true);
    IF g IS NULL THEN
      RETURN QUERY
        SELECT a.name, s.score
          FROM advertiser_names a CROSS JOIN LATERAL (SELECT similarity(a.search_key, q) AS score) s
         WHERE a.search_key % q AND s.score >= v_threshold AND s.score < v_below
         ORDER BY s.score DESC, a.search_key, a.name
         LIMIT n - v_found;
    ELSE
      RETURN QUERY
        SELECT a.name, s.score
          FROM advertiser_names a CROSS JOIN LATERAL (SELECT similarity(a.search_grams, g) AS score) s
         WHERE a.search_grams IS NOT NULL AND a.search_grams % g AND s.score >= v_threshold AND s.score < v_below
         ORDER BY s.score DESC, a.search_key, a.name
         LIMIT n - v_found;
    END IF;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_found := v_found + v_rows;
    EXIT WHEN v_found >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
END $$;
