-- advertiser_names follows renames of identifiers: a name no identifier carries any more leaves
-- it (checked when the statement ends, so an identifier that takes the name in the same statement
-- keeps it). Names enter it from ingest, which knows their search keys. One row trigger per
-- schema, live and sandbox, firing only for a row whose name changed; the function names its
-- tables without a schema (search_path).
CREATE OR REPLACE FUNCTION advertiser_names_follow_rename() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM advertiser_names a
   WHERE a.name = OLD.name AND NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = OLD.name);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON public.identifiers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION advertiser_names_follow_rename();
CREATE OR REPLACE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON sandbox.identifiers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION advertiser_names_follow_rename();
