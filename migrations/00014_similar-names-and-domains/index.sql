-- "Did you mean" and the similar names of the advertiser search (docs/product-rules.md §15),
-- found in two small tables kept by triggers instead of trigram indexes over identifiers and
-- landing domains.
--
-- At 20 million observations the GiST trigram walks of 00010 and 00013 read most of their index
-- for a misspelled name (0.2 to 0.5 s): the same words recur in many names, so the index's
-- signatures separate little. Here each distinct name is held once with its search key stored,
-- under a GIN trigram index, and each root domain's first label (its "stem": what a customer
-- misspells) once, under another; similar_advertiser_names and similar_landing_domains ask for
-- the closest matches at a similarity of 0.6 first and go down (0.45, then pg_trgm's 0.3) only
-- when those are too few: the higher the bar, the fewer names the index offers as candidates.
--
-- The sandbox's copies (migrations/00011_sandbox) are made the same way. The trigger functions
-- and the search functions name their tables without a schema: a connection whose search_path
-- starts with `sandbox` reads and keeps the sandbox's.

CREATE FUNCTION advertiser_names_follow_identifiers() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO advertiser_names (name, search_key)
    SELECT DISTINCT n.name, advertiser_search_key(n.name) FROM new_identifiers n
    ON CONFLICT (name) DO NOTHING;
    RETURN NULL;
  END IF;
  -- An update renames an identifier (ingest: a later observation under another name) or only
  -- moves its counts; only renames touch the names. The DELETE does not see the names the INSERT
  -- adds (one snapshot), and a name an identifier still carries is never deleted.
  WITH renamed AS (
    SELECT o.name AS old_name, n.name AS new_name
      FROM old_identifiers o JOIN new_identifiers n USING (advertiser_id)
     WHERE o.name <> n.name
  ), added AS (
    INSERT INTO advertiser_names (name, search_key)
    SELECT DISTINCT new_name, advertiser_search_key(new_name) FROM renamed
    ON CONFLICT (name) DO NOTHING
  )
  DELETE FROM advertiser_names a
   USING (SELECT DISTINCT old_name FROM renamed) r
   WHERE a.name = r.old_name AND NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = r.old_name);
  RETURN NULL;
END $$;

CREATE FUNCTION landing_domain_stems_follow_domains() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO landing_domain_stems (stem)
  SELECT DISTINCT split_part(n.domain, '.', 1) FROM new_domains n
  ON CONFLICT (stem) DO NOTHING;
  RETURN NULL;
END $$;

DO $$
DECLARE
  v_schema text;
  v_index text;
BEGIN
  FOREACH v_schema IN ARRAY ARRAY['public', 'sandbox'] LOOP
    -- The GiST trigram indexes of 00010, 00011 and 00013 give way to the tables below.
    FOR v_index IN
      SELECT c.relname FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
       WHERE i.indrelid IN (format('%I.identifiers', v_schema)::regclass,
                            format('%I.landing_domain_stats', v_schema)::regclass)
         AND am.amname = 'gist'
    LOOP
      EXECUTE format('DROP INDEX %I.%I', v_schema, v_index);
    END LOOP;

    EXECUTE format($sql$
      CREATE TABLE %1$I.advertiser_names (
        name text PRIMARY KEY,
        search_key text COLLATE "C" NOT NULL
      );
      INSERT INTO %1$I.advertiser_names (name, search_key)
      SELECT DISTINCT name, advertiser_search_key(name) FROM %1$I.identifiers;
      CREATE INDEX advertiser_names_by_trigrams ON %1$I.advertiser_names USING gin (search_key gin_trgm_ops);
      CREATE TRIGGER advertiser_names_on_insert AFTER INSERT ON %1$I.identifiers
        REFERENCING NEW TABLE AS new_identifiers
        FOR EACH STATEMENT EXECUTE FUNCTION advertiser_names_follow_identifiers();
      CREATE TRIGGER advertiser_names_on_update AFTER UPDATE ON %1$I.identifiers
        REFERENCING OLD TABLE AS old_identifiers NEW TABLE AS new_identifiers
        FOR EACH STATEMENT EXECUTE FUNCTION advertiser_names_follow_identifiers();

      CREATE TABLE %1$I.landing_domain_stems (stem text COLLATE "C" PRIMARY KEY);
      INSERT INTO %1$I.landing_domain_stems (stem)
      SELECT DISTINCT split_part(domain, '.', 1) FROM %1$I.landing_domain_stats;
      CREATE INDEX landing_domain_stems_by_trigrams ON %1$I.landing_domain_stems USING gin (stem gin_trgm_ops);
      CREATE INDEX landing_domain_stats_by_stem ON %1$I.landing_domain_stats ((split_part(domain, '.', 1)));
      CREATE TRIGGER landing_domain_stems_on_insert AFTER INSERT ON %1$I.landing_domain_stats
        REFERENCING NEW TABLE AS new_domains
        FOR EACH STATEMENT EXECUTE FUNCTION landing_domain_stems_follow_domains();
    $sql$, v_schema);
  END LOOP;
END $$;

-- Up to `n` names whose search keys resemble `q` (a search key), nearest first (then by name),
-- with their similarity as `score`. The closest first (0.6 and over): they are found from few
-- candidates, and when there are `n` of them no farther name can be among the nearest.
CREATE FUNCTION similar_advertiser_names(q text, n integer)
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
    PERFORM set_config('pg_trgm.similarity_threshold', v_threshold::text, true);
    RETURN QUERY
      SELECT a.name, similarity(a.search_key, q) FROM advertiser_names a
       WHERE a.search_key % q AND similarity(a.search_key, q) < v_below
       ORDER BY a.search_key <-> q, a.name
       LIMIT n - v_found;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_found := v_found + v_rows;
    EXIT WHEN v_found >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
END $$;

-- Up to `n` root domains with ads that resemble `q` (a normalized root domain): those whose stems
-- are nearest to q's stem, and among a stem's domains the nearest to q whole (then by domain).
CREATE FUNCTION similar_landing_domains(q text, n integer)
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
  FOREACH v_threshold IN ARRAY ARRAY[0.6, 0.45, 0.3]::real[] LOOP
    PERFORM set_config('pg_trgm.similarity_threshold', v_threshold::text, true);
    v_stems := v_stems || ARRAY(
      SELECT s.stem FROM landing_domain_stems s
       WHERE s.stem % v_stem AND similarity(s.stem, v_stem) < v_below
       ORDER BY s.stem <-> v_stem, s.stem
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
