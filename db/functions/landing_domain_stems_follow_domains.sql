-- landing_domain_stems holds each root domain's first label (its "stem": what a customer
-- misspells) once, for similar_landing_domains; new landing domains add theirs, per statement.
-- One trigger per schema, live and sandbox; the function names its table without a schema
-- (search_path).
CREATE OR REPLACE FUNCTION landing_domain_stems_follow_domains() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO landing_domain_stems (stem)
  SELECT DISTINCT split_part(n.domain, '.', 1) FROM new_domains n
  ON CONFLICT (stem) DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER landing_domain_stems_on_insert AFTER INSERT ON public.landing_domain_stats
  REFERENCING NEW TABLE AS new_domains
  FOR EACH STATEMENT EXECUTE FUNCTION landing_domain_stems_follow_domains();
CREATE OR REPLACE TRIGGER landing_domain_stems_on_insert AFTER INSERT ON sandbox.landing_domain_stats
  REFERENCING NEW TABLE AS new_domains
  FOR EACH STATEMENT EXECUTE FUNCTION landing_domain_stems_follow_domains();
