-- Search keys computed once, in TypeScript, and stored (docs/product-rules.md R15.2).
--
-- The key of 00010 was an SQL function: lower() under COLLATE "C" folds A-Z only, and translate()
-- knew a few dozen Latin-1 letters, so Cyrillic, Greek, Polish or full-width names never matched
-- in another case or without accents. The key is now src/contract/search-key.ts, which follows
-- Unicode in every script; PostgreSQL cannot compute it, so it is stored with the version of the
-- normalization that computed it (key_version). Ingest keys each name it adds to advertiser_names
-- (a name new to the data, once); the migration step after the SQL migrations (data/search-keys.ts)
-- keys every name whose key_version is not the current one: here all of them, whose keys were
-- the SQL function's, and again whenever the version goes up. Queries compute the key of q the
-- same way and read advertiser_names by key: the index on the identifiers' expression key goes.
--
-- Names enter advertiser_names from ingest, which knows their keys, instead of a trigger on
-- identifiers, which did not; the rename trigger only takes out a name no identifier carries
-- any more.
CREATE OR REPLACE FUNCTION advertiser_names_follow_rename() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM advertiser_names a
   WHERE a.name = OLD.name AND NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = OLD.name);
  RETURN NULL;
END $$;

DO $$
DECLARE
  v_schema text;
BEGIN
  FOREACH v_schema IN ARRAY ARRAY['public', 'sandbox'] LOOP
    EXECUTE format($sql$
      DROP TRIGGER advertiser_names_on_insert ON %1$I.identifiers;
      DROP INDEX %1$I.identifiers_by_search_key;
      ALTER TABLE %1$I.advertiser_names
        ALTER COLUMN search_key DROP NOT NULL,
        ADD COLUMN key_version smallint,
        ADD CHECK ((search_key IS NULL) = (key_version IS NULL));
      UPDATE %1$I.advertiser_names SET search_key = NULL;
      -- Equal keys and key prefixes: one range scan in (key, name) order.
      CREATE INDEX advertiser_names_by_search_key ON %1$I.advertiser_names (search_key, name);
      -- The names to key again: those of another version, or none yet.
      CREATE INDEX advertiser_names_by_key_version ON %1$I.advertiser_names (key_version);
    $sql$, v_schema);
  END LOOP;
END $$;

DROP FUNCTION advertiser_names_follow_identifiers();
DROP FUNCTION advertiser_search_key(text);
