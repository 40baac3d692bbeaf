-- The watches API lists an account's watches newest first, a page at a time (listWatches,
-- docs/product-rules.md R19.11): each watch gets its place in the order of creation, which the
-- page cursor names, so a page does not shift while watches are created or deleted.
ALTER TABLE watches ADD COLUMN position bigint GENERATED ALWAYS AS IDENTITY;
CREATE UNIQUE INDEX watches_by_account_position ON watches (account_id, sandbox, position) WHERE deleted_at IS NULL;
