-- Short names found by their n-grams too (docs/product-rules.md R15.2, search key version 3).
--
-- One edit changes three of the few trigrams of a short word: `harirs` was 0.27 similar to
-- `harris`, under the 0.3 floor, so a one-letter typo of a short name found nothing. Keys of at
-- most 8 characters now have character n-grams as keys outside ASCII do (00022), and a name is as
-- similar as the better of its two measures: the trigrams of the keys, and the n-grams when both
-- sides have them. Each name falls in one band, decided on that one score; candidates come from
-- either index (a short query still finds longer names by their trigrams).
CREATE OR REPLACE FUNCTION similar_advertiser_names(q text, g text, n integer)
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
  -- pg_trgm loaded before its setting is set: set before the module is loaded, the setting is
  -- left empty when the transaction ends, and the session's next load of the module then fails.
  PERFORM similarity('', '');
  FOREACH v_threshold IN ARRAY ARRAY[0.6, 0.45, 0.3]::real[] LOOP
    PERFORM set_config('pg_trgm.similarity_threshold', (v_threshold - 0.001)::text, true);
    RETURN QUERY
      SELECT a.name, s.score
        FROM advertiser_names a
        CROSS JOIN LATERAL (
          SELECT greatest(similarity(a.search_key, q), coalesce(similarity(a.search_grams, g), 0)) AS score
        ) s
       WHERE (a.search_key % q OR a.search_grams % g) AND s.score >= v_threshold AND s.score < v_below
       ORDER BY s.score DESC, a.search_key, a.name
       LIMIT n - v_found;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_found := v_found + v_rows;
    EXIT WHEN v_found >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
END $$;
