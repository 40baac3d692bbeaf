-- Spending under control (docs/product-rules.md §14): a daily credit cap per key, and an alert
-- when the balance falls below the account's threshold.

-- A key's daily cap, in credits per UTC day; NULL: no cap. Only a capped key keeps its spend:
-- `cap_day_spent` credits charged (less refunds) on `cap_day`, so the debit checks the cap with
-- what it already reads, and a key without a cap costs nothing more. Setting a cap counts the
-- day's spend from the ledger, so a cap set at noon counts the morning's calls.
ALTER TABLE api_keys
  ADD COLUMN daily_cap     bigint CHECK (daily_cap IS NULL OR daily_cap > 0),
  ADD COLUMN cap_day       date,
  ADD COLUMN cap_day_spent bigint NOT NULL DEFAULT 0 CHECK (cap_day_spent >= 0);
-- A capped key's row is rewritten by every debit statement that charges it: room on its page lets
-- PostgreSQL update it in place (a HOT update, no index entries written). Measured on 32-call
-- statements of capped keys: 0.97 of an uncapped statement's speed with it, 0.92-0.95 without.
ALTER TABLE api_keys SET (fillfactor = 50);

-- The low-balance alert: a threshold in credits (NULL: no alert; 50 unless the holder changes it)
-- and whether it is armed. A debit that leaves the balance below the threshold while armed raises
-- one alert and disarms it; credits that bring the balance back to the threshold (a purchase, a
-- grant, the operator's) arm it again, as does a new threshold the balance meets. Refunds of failed
-- calls do not: a balance hovering at the threshold gets one alert, not one per call.
ALTER TABLE accounts
  ADD COLUMN low_balance_threshold bigint DEFAULT 50 CHECK (low_balance_threshold IS NULL OR low_balance_threshold > 0),
  ADD COLUMN low_balance_armed     boolean NOT NULL DEFAULT true;
-- Existing accounts already below it are not alerted for a threshold they never saw.
UPDATE accounts SET low_balance_armed = false WHERE balance < low_balance_threshold;

-- Where an account's alerts are posted besides its email: one HTTPS endpoint, signed with the
-- account's secret (HMAC-SHA256).
CREATE TABLE alert_webhooks (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  url        text COLLATE "C" NOT NULL CHECK (url LIKE 'https://%' AND length(url) <= 2048),
  secret     text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per crossing, written by the debit that crossed, in its own statement: the alert exists
-- exactly when the debit committed. Sent later, outside the request path (src/alerts/).
CREATE TABLE balance_alerts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id),
  balance     bigint NOT NULL,
  threshold   bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- When the sender turned it into deliveries (one per channel the account has).
  expanded_at timestamptz
);
CREATE INDEX balance_alerts_to_expand ON balance_alerts (id) WHERE expanded_at IS NULL;

-- An alert to one destination: the verified email, or the webhook. Retried with backoff until
-- delivered or given up; `locked_until` keeps two senders (two instances) off the same delivery.
CREATE TABLE alert_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alert_id        bigint NOT NULL REFERENCES balance_alerts (id),
  account_id      bigint NOT NULL REFERENCES accounts (id),
  channel         text NOT NULL CHECK (channel IN ('email', 'webhook')),
  target          text COLLATE "C" NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  delivered_at    timestamptz,
  given_up_at     timestamptz,
  last_error      text,
  UNIQUE (alert_id, channel)
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX alert_deliveries_by_account ON alert_deliveries (account_id, id);

-- Every attempt of a delivery, as the account page shows it.
CREATE TABLE alert_attempts (
  delivery_id  bigint NOT NULL REFERENCES alert_deliveries (id),
  attempt      integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  ok           boolean NOT NULL,
  -- The webhook's HTTP status, when it answered.
  status       integer,
  error        text,
  PRIMARY KEY (delivery_id, attempt)
);

-- debit_credits as in 00006, and in the same statement: the key's daily cap (a call that would
-- take a capped key past it is refused, nothing charged), and the low-balance alert of each
-- account whose balance the statement takes below its threshold.
--
-- Each call of p_calls: {"key_hash" (hex), "price", "endpoint", "request_id", "call_id",
-- "run_id", and "idempotency_key" when the call holds a claim}. A row per call of a valid key:
-- `capped` when the cap refused it; otherwise a charge_id when charged (insufficient when not and
-- the price is above 0). `daily_cap` and `spent_today` are the key's (NULL without a cap):
-- what it had spent before a refused call, or with a charged one.
DROP FUNCTION debit_credits(jsonb);
CREATE FUNCTION debit_credits(p_calls jsonb)
RETURNS TABLE (
  nth integer, key_id bigint, account_id bigint, key_prefix text, charge_id bigint, balance bigint,
  capped boolean, daily_cap bigint, spent_today bigint
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_call     jsonb;
  v_i        integer;
  v_price    bigint;
  v_caller   record;
  v_balance  bigint;
  v_spent    bigint;
  v_today    date := (now() AT TIME ZONE 'UTC')::date;
  v_balances jsonb := '{}';
  v_charged  jsonb := '{}';
  -- Per capped key charged in this statement: the credits it charged.
  v_key_spent jsonb := '{}';
  -- Accounts whose armed alert this statement set off, with their threshold.
  v_alerted  jsonb := '{}';
BEGIN
  PERFORM FROM accounts a
  WHERE a.id IN (
    SELECT k.account_id
    FROM jsonb_array_elements(p_calls) AS c
    JOIN api_keys k ON k.key_hash = decode(c ->> 'key_hash', 'hex')
    WHERE (c ->> 'price')::bigint > 0
  )
  ORDER BY a.id
  FOR UPDATE;

  FOR v_call, v_i IN SELECT value, ordinality FROM jsonb_array_elements(p_calls) WITH ORDINALITY LOOP
    SELECT k.id, k.account_id, k.display_prefix, k.daily_cap, a.low_balance_armed, a.low_balance_threshold,
      CASE WHEN k.cap_day = v_today THEN k.cap_day_spent ELSE 0 END AS spent_before
      INTO v_caller
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = decode(v_call ->> 'key_hash', 'hex')
      AND k.revoked_at IS NULL
      AND a.disabled_at IS NULL;
    CONTINUE WHEN NOT FOUND;

    v_balance := (v_balances ->> v_caller.account_id::text)::bigint;
    IF v_balance IS NULL THEN
      SELECT a.balance INTO v_balance FROM accounts a WHERE a.id = v_caller.account_id;
    END IF;
    v_price := (v_call ->> 'price')::bigint;

    nth := v_i; key_id := v_caller.id; account_id := v_caller.account_id; key_prefix := v_caller.display_prefix;
    charge_id := NULL; capped := false; daily_cap := v_caller.daily_cap; spent_today := NULL;
    IF v_caller.daily_cap IS NOT NULL THEN
      v_spent := v_caller.spent_before + coalesce((v_key_spent ->> v_caller.id::text)::bigint, 0);
      spent_today := v_spent;
      capped := v_price > 0 AND v_spent + v_price > v_caller.daily_cap;
    END IF;
    IF v_price > 0 AND NOT capped AND v_balance >= v_price THEN
      v_balance := v_balance - v_price;
      INSERT INTO ledger (account_id, key_id, kind, amount, balance_after, endpoint, request_id)
      VALUES (v_caller.account_id, v_caller.id, 'charge', -v_price, v_balance, v_call ->> 'endpoint', v_call ->> 'request_id')
      RETURNING id INTO charge_id;
      INSERT INTO undelivered_charges (charge_id, call_id, run_id, account_id, idempotency_key)
      VALUES (charge_id, (v_call ->> 'call_id')::uuid, (v_call ->> 'run_id')::uuid, v_caller.account_id, v_call ->> 'idempotency_key');
      IF v_call ? 'idempotency_key' THEN
        UPDATE idempotency_keys held
        SET charge_id = debit_credits.charge_id
        WHERE held.account_id = v_caller.account_id
          AND held.idempotency_key = v_call ->> 'idempotency_key'
          AND held.request_id = v_call ->> 'call_id'
          AND held.state = 'running';
      END IF;
      v_charged := v_charged || jsonb_build_object(v_caller.account_id::text, true);
      IF v_caller.low_balance_armed AND v_balance < v_caller.low_balance_threshold THEN
        v_alerted := v_alerted || jsonb_build_object(v_caller.account_id::text, v_caller.low_balance_threshold);
      END IF;
      IF v_caller.daily_cap IS NOT NULL THEN
        v_key_spent := v_key_spent || jsonb_build_object(
          v_caller.id::text, coalesce((v_key_spent ->> v_caller.id::text)::bigint, 0) + v_price);
        spent_today := spent_today + v_price;
      END IF;
    END IF;
    v_balances := jsonb_set(v_balances, ARRAY[v_caller.account_id::text], to_jsonb(v_balance));
    balance := v_balance;
    RETURN NEXT;
  END LOOP;

  -- Each account charged: its new balance; an alert set off is disarmed. The account's row has
  -- been locked since before anything of it was read, so the values are exact.
  UPDATE accounts a
  SET balance = (v_balances ->> a.id::text)::bigint,
    low_balance_armed = a.low_balance_armed AND NOT v_alerted ? a.id::text
  -- = ANY(ARRAY(...)), not IN (SELECT ...): the planner cannot size a jsonb's keys and would hash
  -- them and scan the whole table; an array of ids goes through the primary key.
  WHERE a.id = ANY(ARRAY(SELECT id::bigint FROM jsonb_object_keys(v_charged) AS id));

  -- One alert per crossing, however many calls of the statement crossed, with the balance it left.
  IF v_alerted <> '{}' THEN
    INSERT INTO balance_alerts (account_id, balance, threshold)
    SELECT alerted.key::bigint, (v_balances ->> alerted.key)::bigint, alerted.value::text::bigint
    FROM jsonb_each(v_alerted) AS alerted;
  END IF;

  -- The capped keys' spend, on their own rows. Measured on 32-call statements: a capped one runs
  -- at 0.955 of an uncapped one's speed this way, at 0.84-0.87 with the spend kept as jsonb on the
  -- account's row (it must then be grouped by account). Relative, so a refund that lowered the
  -- spend meanwhile is never overwritten.
  IF v_key_spent <> '{}' THEN
    UPDATE api_keys k
    SET cap_day_spent = CASE WHEN k.cap_day = v_today THEN k.cap_day_spent ELSE 0 END
        + (v_key_spent ->> k.id::text)::bigint,
      cap_day = v_today
    WHERE k.id = ANY(ARRAY(SELECT id::bigint FROM jsonb_object_keys(v_key_spent) AS id));
  END IF;
END;
$$;
