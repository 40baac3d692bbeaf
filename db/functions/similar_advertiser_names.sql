-- Up to `n` names similar to the key `q` (docs/product-rules.md R15.2, R15.3), or to its n-grams
-- `g` when both sides have them, most similar first, then by key and name, with their similarity
-- as `score`. A name is as similar as the better of its two measures. The closest first, in bands
-- (0.6, 0.45, then pg_trgm's 0.3): the higher the bar, the fewer candidates the indexes offer, and
-- when a band fills the answer no farther name can be among the nearest. `%` only offers
-- candidates, at a hair under the band: the band is decided on the similarity itself, as a real.
-- Tables are named without a schema: a connection whose search_path starts with `sandbox` reads
-- the sandbox's.
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
