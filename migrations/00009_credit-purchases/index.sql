-- Credit purchases through Stripe Checkout (docs/product-rules.md §13, docs/billing.md).

-- A Checkout Session the service created for an account. What a paid session credits is read
-- from here (the pack as it was offered), never from the event's metadata. `payment_reference` is
-- the session's PaymentIntent, learnt when it completes: the ledger's payment reference, which is
-- unique, so a payment credits once however often its event is delivered.
CREATE TABLE credit_purchases (
  checkout_session_id text COLLATE "C" PRIMARY KEY,
  account_id          bigint NOT NULL REFERENCES accounts (id),
  pack_id             text COLLATE "C" NOT NULL,
  credits             bigint NOT NULL CHECK (credits > 0),
  -- The price, in the currency's minor units (cents).
  amount              bigint NOT NULL CHECK (amount > 0),
  currency            text COLLATE "C" NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  payment_reference   text COLLATE "C" UNIQUE,
  credited_at         timestamptz,
  -- Refunds and disputes: the amount refunded so far (Stripe reports it cumulatively), whether a
  -- dispute took the whole payment back, and the credits taken back for them so far.
  amount_refunded     bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0),
  disputed_at         timestamptz,
  credits_reversed    bigint NOT NULL DEFAULT 0 CHECK (credits_reversed >= 0)
);
CREATE INDEX credit_purchases_by_account ON credit_purchases (account_id, created_at);

-- A reversal takes a refunded or disputed purchase's credits back: `amount` is what the balance
-- allowed (0 or less), `owed` the rest, which the operator sees (`admin credits owed`).
-- `reversal_of` is the purchase's ledger row; `request_id` holds the Stripe event's id.
ALTER TABLE ledger ADD COLUMN reversal_of bigint REFERENCES ledger (id);
ALTER TABLE ledger ADD COLUMN owed bigint CHECK (owed IS NULL OR owed >= 0);
DO $$
DECLARE
  v_name text;
BEGIN
  -- The checks on `kind` of 00001 were named by PostgreSQL; they are replaced by named ones.
  FOR v_name IN
    SELECT conname FROM pg_constraint
    WHERE conrelid = 'ledger'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%kind%'
  LOOP
    EXECUTE format('ALTER TABLE ledger DROP CONSTRAINT %I', v_name);
  END LOOP;
END;
$$;
ALTER TABLE ledger
  ADD CONSTRAINT ledger_kinds CHECK (kind IN ('grant', 'purchase', 'charge', 'refund', 'reversal')),
  ADD CONSTRAINT ledger_amount_sign CHECK (
    (kind = 'charge' AND amount < 0)
    OR (kind IN ('grant', 'purchase', 'refund') AND amount > 0)
    OR (kind = 'reversal' AND amount <= 0)),
  ADD CONSTRAINT ledger_purchase_reference CHECK ((kind = 'purchase') = (payment_reference IS NOT NULL)),
  ADD CONSTRAINT ledger_refund_of CHECK ((kind = 'refund') = (refund_of IS NOT NULL)),
  ADD CONSTRAINT ledger_reversal_of CHECK ((kind = 'reversal') = (reversal_of IS NOT NULL AND owed IS NOT NULL));
CREATE INDEX ledger_reversals ON ledger (reversal_of) WHERE reversal_of IS NOT NULL;
