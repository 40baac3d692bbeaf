-- Up to `n` root domains with ads that resemble `q` (a normalized root domain; docs/product-rules.md
-- R15.5): those whose stems (first labels) are nearest to q's stem, in the bands of
-- similar_advertiser_names, and among a stem's domains the nearest to q whole (then by domain).
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
