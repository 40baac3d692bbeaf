-- The advertiser search's prefix branch (docs/product-rules.md §15) reads names in the order of
-- (search key, name) and stops after the first few distinct ones. With the name in the index,
-- that is one ordered index walk that stops early; with the key alone, PostgreSQL fetched every
-- identifier under a common prefix (thousands on 20 million observations) to sort them.
DROP INDEX identifiers_by_search_key;
CREATE INDEX identifiers_by_search_key ON identifiers ((advertiser_search_key(name)) COLLATE "C", name);

-- The sandbox's copy of the table keeps the live one's indexes (migrations/00011_sandbox named
-- its copies itself, so the old one is found by what it indexes).
DO $$
DECLARE v_name text;
BEGIN
  SELECT c.relname INTO STRICT v_name
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
   WHERE i.indrelid = 'sandbox.identifiers'::regclass AND am.amname = 'btree'
     AND pg_get_indexdef(i.indexrelid) LIKE '%advertiser_search_key%';
  EXECUTE format('DROP INDEX sandbox.%I', v_name);
END $$;
CREATE INDEX identifiers_by_search_key ON sandbox.identifiers ((advertiser_search_key(name)) COLLATE "C", name);
