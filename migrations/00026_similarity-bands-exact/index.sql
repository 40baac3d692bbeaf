-- The similar names and domains of 00014, with two defects fixed (docs/product-rules.md R15.3,
-- R15.5).
--
-- 1. A band's boundary. pg_trgm's similarity is a `real`, and `%` compares it with the threshold
--    setting as a double: a name whose similarity is exactly 0.45 (0.449999988 once widened)
--    failed `%` in the band from 0.45, and was below no band's upper bound in the band from 0.3
--    (0.45 < 0.45 as reals): it fell into neither, and a less similar name took its place. `%`
--    now only offers candidates, at a threshold a hair under the band, and the band is decided on
--    the similarity itself, as a real on both sides.
-- 2. Ties at the cut. Equally similar names were taken by name, so when more tied than there was
--    room, upper-case names (before lower case in code-point order) won over names whose keys
--    come first. They are taken by key, then name, the order the search answers in.
CREATE OR REPLACE FUNCTION similar_advertiser_names(q text, n integer)
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
    RETURN QUERY
      SELECT a.name, s.score
        FROM advertiser_names a CROSS JOIN LATERAL (SELECT similarity(a.search_key, q) AS score) s
       WHERE a.search_key % q AND s.score >= v_threshold AND s.score < v_below
       ORDER BY s.score DESC, a.search_key, a.name
       LIMIT n - v_found;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_found := v_found + v_rows;
    EXIT WHEN v_found >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
END $$;

CREATE OR REPLACE FUNCTION similar_landing_domains(q text, n integer)
RETURNS TABLE (domain text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_stem text := split_part(q, '.', 1);
  v_stems text[] := '{}';
  v_threshold real;
  v_below real := 2;
  v_default text := coalesce(current_setting('pg_trgm.similarity_threshold', true), '0.3');
BEGIN
  -- pg_trgm loaded before its setting is set: set before the module is loaded, the setting is
  -- left empty when the transaction ends, and the session's next load of the module then fails.
  PERFORM similarity('', '');
  FOREACH v_threshold IN ARRAY ARRAY[0.6, 0.45, 0.3]::real[] LOOP
    PERFORM set_config('pg_trgm.similarity_threshold', (v_threshold - 0.001)::text, true);
    v_stems := v_stems || ARRAY(
      SELECT s.stem
        FROM landing_domain_stems s CROSS JOIN LATERAL (SELECT similarity(s.stem, v_stem) AS score) m
       WHERE s.stem % v_stem AND m.score >= v_threshold AND m.score < v_below
       ORDER BY m.score DESC, s.stem
       LIMIT n - cardinality(v_stems));
    EXIT WHEN cardinality(v_stems) >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
  RETURN QUERY
    SELECT d.domain FROM unnest(v_stems) WITH ORDINALITY AS s(stem, nth)
      JOIN landing_domain_stats d ON split_part(d.domain, '.', 1) = s.stem
     ORDER BY s.nth, d.domain <-> q, d.domain COLLATE "C"
     LIMIT n;
END $$;
