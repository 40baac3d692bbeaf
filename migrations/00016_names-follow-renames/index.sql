-- The names table of 00014 and the triggers that keep it, made to cost in proportion to what an
-- ingest batch changes.
--
-- advertiser_names.name had the database's default collation while every name it is compared
-- with is COLLATE "C", so no comparison could use its primary key. And the update trigger found
-- an update's renames by joining the statement's old and new rows, a join PL/pgSQL plans once
-- for one row on each side: a nested loop. An ingest batch that updated 18,000 identifiers
-- (their counts; a rename is rare) spent 30 s in that trigger, growing with the square of the
-- batch.
--
-- The column is now COLLATE "C": byte equality and code-point order, as it already compared on
-- a "C" or "C.UTF-8" database. Renames are followed by a row trigger that fires only for a row
-- whose name changed: it adds the new name when missing and removes the old one once no
-- identifier carries it (checked when the statement ends, so an identifier that takes the name
-- in the same statement keeps it). New identifiers' names are still added per statement. The
-- sandbox's tables get the same triggers, which name their tables without a schema
-- (search_path).
ALTER TABLE advertiser_names ALTER COLUMN name TYPE text COLLATE "C";
ALTER TABLE sandbox.advertiser_names ALTER COLUMN name TYPE text COLLATE "C";

CREATE OR REPLACE FUNCTION advertiser_names_follow_identifiers() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO advertiser_names (name, search_key)
  SELECT DISTINCT n.name, advertiser_search_key(n.name) FROM new_identifiers n
  ON CONFLICT (name) DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION advertiser_names_follow_rename() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO advertiser_names (name, search_key)
  VALUES (NEW.name, advertiser_search_key(NEW.name))
  ON CONFLICT (name) DO NOTHING;
  DELETE FROM advertiser_names a
   WHERE a.name = OLD.name AND NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = OLD.name);
  RETURN NULL;
END $$;

DROP TRIGGER advertiser_names_on_update ON identifiers;
DROP TRIGGER advertiser_names_on_update ON sandbox.identifiers;
CREATE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON identifiers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION advertiser_names_follow_rename();
CREATE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON sandbox.identifiers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION advertiser_names_follow_rename();
