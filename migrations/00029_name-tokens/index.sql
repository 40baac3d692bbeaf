-- Did-you-mean candidates found by word, not by scanning every name's trigrams (docs/product-rules.md
-- R15.2).
--
-- A trigram search reads, for every trigram of the query, the list of the names that have it: the
-- legal forms and the common words of a language are in a large share of all names, so the
-- did-you-mean grew slower with every name (about a second for a Devanagari name at a million
-- observations). A name's tokens (its words; in scripts without spaces, pairs of characters and
-- Han characters: src/contract/search-tokens.ts) are stored with its key (search key version 4,
-- so the names are keyed again after this migration), each token with the names that have it, and
-- each distinct word with its one-deletion variants: a query's word finds the words one edit away
-- by index probes, their rarest lists give the candidates, and only those are compared. The lists
-- follow advertiser_names (db/functions/advertiser_name_tokens_follow_names.sql).
--
-- The names' trigram indexes served only that scan: dropped, ingest no longer keeps them. The
-- n-grams become integers, compared as sets (a tenth of the cost of pg_trgm comparing them
-- written as words), computed again by the new key version.
DO $$
DECLARE
  v_schema text;
BEGIN
  FOREACH v_schema IN ARRAY ARRAY['public', 'sandbox'] LOOP
    EXECUTE format($sql$
      DROP INDEX %1$I.advertiser_names_by_trigrams;
      DROP INDEX %1$I.advertiser_names_by_grams;
      ALTER TABLE %1$I.advertiser_names ALTER COLUMN search_grams TYPE integer[] USING NULL;
      ALTER TABLE %1$I.advertiser_names ADD COLUMN search_tokens text[] COLLATE "C";
      CREATE TABLE %1$I.advertiser_name_tokens (
        token text COLLATE "C" NOT NULL,
        name  text COLLATE "C" NOT NULL,
        PRIMARY KEY (token, name)
      );
      CREATE TABLE %1$I.name_words (
        word text COLLATE "C" PRIMARY KEY
      );
      CREATE TABLE %1$I.name_word_variants (
        variant text COLLATE "C" NOT NULL,
        word    text COLLATE "C" NOT NULL,
        PRIMARY KEY (variant, word)
      );
    $sql$, v_schema);
  END LOOP;
END $$;
