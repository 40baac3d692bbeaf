-- The Idempotency-Key an account sent with a billed call (docs/product-rules.md §7): which
-- request the key stands for (operation and normalized query) and, once that request was
-- charged, the response to replay to every retry for 24 hours from `created_at`.
--
-- The primary key is the claim: the first request with a key inserts its row ('running') and is
-- the only one that runs and pays; concurrent requests with the same key find the row and wait
-- for it to turn 'completed'. A request that ends without a charge (402, 5xx refunded) deletes
-- its row, so a retry runs again. Rows older than 24 hours are ignored, taken over by a new
-- request with the same key, and purged.
CREATE TABLE idempotency_keys (
  account_id            bigint NOT NULL REFERENCES accounts (id),
  idempotency_key       text COLLATE "C" NOT NULL CHECK (idempotency_key ~ '^[!-~]{1,255}$'),
  operation             text COLLATE "C" NOT NULL,
  -- The query as the service understood it (normalized parameter values), not as it was spelled.
  query                 text COLLATE "C" NOT NULL,
  state                 text NOT NULL CHECK (state IN ('running', 'completed')),
  -- The request that holds the key: the one running it, or the one whose response is stored.
  request_id            text COLLATE "C" NOT NULL,
  -- The charge of the call, recorded right after the debit, so that a request taking over an
  -- abandoned claim (its service stopped mid-call) runs on that charge instead of paying again.
  charge_id             bigint REFERENCES ledger (id),
  response_status       smallint,
  response_content_type text,
  response_body         bytea,
  created_at            timestamptz NOT NULL,
  -- When `request_id` took the key; a 'running' claim older than a minute was abandoned.
  claimed_at            timestamptz NOT NULL,
  PRIMARY KEY (account_id, idempotency_key),
  CHECK ((state = 'completed') = (response_status IS NOT NULL AND response_body IS NOT NULL AND charge_id IS NOT NULL))
);
-- For the purge of expired keys.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
