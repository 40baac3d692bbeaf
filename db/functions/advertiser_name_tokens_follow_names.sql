-- The names of each token, and the variants of each word (docs/product-rules.md R15.2), follow
-- advertiser_names: its rows come from ingest, which writes their tokens with their keys, and
-- leave it with renames; a new key version rewrites them. Statement triggers, once per batch, per
-- schema, live and sandbox; the function names its tables without a schema (search_path). A word
-- no name has any more keeps its variants: it only leads to an empty list.
CREATE OR REPLACE FUNCTION advertiser_name_tokens_follow_names() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM advertiser_name_tokens p
     USING old_names o CROSS JOIN LATERAL unnest(o.search_tokens) t(token)
     WHERE p.token = t.token AND p.name = o.name;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO advertiser_name_tokens (token, name)
      SELECT DISTINCT t.token, n.name
        FROM new_names n CROSS JOIN LATERAL unnest(n.search_tokens) t(token)
      ON CONFLICT DO NOTHING;
    WITH added AS (
      INSERT INTO name_words (word)
        SELECT DISTINCT t.token
          FROM new_names n CROSS JOIN LATERAL unnest(n.search_tokens) t(token)
         WHERE left(t.token, 1) <> '~'
         ORDER BY 1
      ON CONFLICT DO NOTHING
      RETURNING word
    )
    INSERT INTO name_word_variants (variant, word)
      SELECT v.variant, a.word FROM added a CROSS JOIN LATERAL word_variants(a.word) v(variant)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_insert AFTER INSERT ON public.advertiser_names
  REFERENCING NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_update AFTER UPDATE ON public.advertiser_names
  REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_delete AFTER DELETE ON public.advertiser_names
  REFERENCING OLD TABLE AS old_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_insert AFTER INSERT ON sandbox.advertiser_names
  REFERENCING NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_update AFTER UPDATE ON sandbox.advertiser_names
  REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
CREATE OR REPLACE TRIGGER advertiser_name_tokens_on_delete AFTER DELETE ON sandbox.advertiser_names
  REFERENCING OLD TABLE AS old_names
  FOR EACH STATEMENT EXECUTE FUNCTION advertiser_name_tokens_follow_names();
