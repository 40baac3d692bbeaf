-- The "did you mean" domains (docs/product-rules.md §15) are found through a trigram index. Built
-- on the column itself, that index also answers `domain = …` (pg_trgm's GiST supports equality),
-- and the planner took it for the domain summary and the brand-bid report in place of the primary
-- key: a walk of trigram signatures for a one-row lookup, three times slower on 20 million
-- observations. Built on the search key of the domain (the same text for a root domain), it
-- serves only the similarity search, which names that expression.
DROP INDEX landing_domain_stats_by_trigrams;
CREATE INDEX landing_domain_stats_by_trigrams ON landing_domain_stats
  USING gist (advertiser_search_key(domain) gist_trgm_ops);

-- The sandbox's copy keeps the live table's indexes (migrations/00011_sandbox named its copies).
DO $$
DECLARE v_name text;
BEGIN
  SELECT c.relname INTO STRICT v_name
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
   WHERE i.indrelid = 'sandbox.landing_domain_stats'::regclass AND am.amname = 'gist';
  EXECUTE format('DROP INDEX sandbox.%I', v_name);
END $$;
CREATE INDEX landing_domain_stats_by_trigrams ON sandbox.landing_domain_stats
  USING gist (advertiser_search_key(domain) gist_trgm_ops);
