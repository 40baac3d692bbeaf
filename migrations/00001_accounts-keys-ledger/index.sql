-- Accounts hold one prepaid balance shared by all their keys. The CHECK is the last line of
-- defence: the debit statement never lets a balance go below zero, and if it ever tried the
-- statement would fail instead of overspending.
CREATE TABLE accounts (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email             text COLLATE "C",
  balance           bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  first_key_granted boolean NOT NULL DEFAULT false,
  disabled_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key is stored, with a short prefix to show to its owner.
CREATE TABLE api_keys (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES accounts (id),
  key_hash       bytea NOT NULL UNIQUE,
  display_prefix text COLLATE "C" NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at     timestamptz
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);

-- Every balance change is a ledger row; the balance always equals the sum of `amount`.
CREATE TABLE ledger (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id        bigint NOT NULL REFERENCES accounts (id),
  key_id            bigint REFERENCES api_keys (id),
  kind              text NOT NULL CHECK (kind IN ('grant', 'purchase', 'charge', 'refund')),
  amount            bigint NOT NULL,
  balance_after     bigint NOT NULL CHECK (balance_after >= 0),
  endpoint          text COLLATE "C",
  request_id        text COLLATE "C",
  payment_reference text COLLATE "C" UNIQUE,
  refund_of         bigint UNIQUE REFERENCES ledger (id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind IN ('charge') AND amount < 0) OR (kind IN ('grant', 'purchase', 'refund') AND amount > 0)),
  CHECK ((kind = 'purchase') = (payment_reference IS NOT NULL)),
  CHECK ((kind = 'refund') = (refund_of IS NOT NULL))
);
CREATE INDEX ledger_by_account ON ledger (account_id, id);
