-- Charging exactly once at the edges (docs/reliability.md, "Money at the edges").
--
-- Every start of the service is a run. A run beats its heartbeat while it lives and is ended when
-- it stops or is found dead (its process gone on the same host, or its heartbeat stale), so
-- what it left unfinished can be settled by whoever is alive.
CREATE TABLE service_runs (
  id           uuid PRIMARY KEY,
  host         text NOT NULL,
  pid          integer NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  ended_at     timestamptz
);

-- A charge whose answer has not been seen leaving the process. The debit inserts the row in its
-- own statement; the row goes when the answer was written to the client (delivery marks, in
-- batches off the request path) or when the charge is refunded. A row whose run ended was never
-- delivered: the recovery pass refunds it, unless an Idempotency-Key still holds the charge for a
-- retry, which then runs on it instead of paying again. The table holds calls in flight only.
CREATE TABLE undelivered_charges (
  charge_id       bigint PRIMARY KEY REFERENCES ledger (id),
  -- Made by the service for each call, never by the caller: how a debit whose outcome was lost
  -- (the connection broke while it ran) finds its own charge, and no other.
  call_id         uuid NOT NULL UNIQUE,
  -- The run that made the charge; no foreign key, so a debit costs no extra lookup.
  run_id          uuid NOT NULL,
  account_id      bigint NOT NULL,
  -- The Idempotency-Key whose claim holds the charge, if the call sent one.
  idempotency_key text COLLATE "C"
);

-- The run holding an Idempotency-Key's claim: once that run has ended, a retry takes the claim
-- over at once instead of waiting for it to count as abandoned.
ALTER TABLE idempotency_keys ADD COLUMN run_id uuid;
COMMENT ON COLUMN idempotency_keys.request_id IS
  'The call holding the key: an id the service makes for each call, never the caller''s X-Request-Id.';

-- debit_credits as in 0003, and in the same statement, for each call charged: its undelivered
-- row, and the charge recorded on the call's Idempotency-Key claim, so the claim never lacks the
-- charge that paid for it (a crash between the two would make the retry pay again).
--
-- Each call of p_calls: {"key_hash" (hex), "price", "endpoint", "request_id", "call_id",
-- "run_id", and "idempotency_key" when the call holds a claim}.
CREATE OR REPLACE FUNCTION debit_credits(p_calls jsonb)
RETURNS TABLE (nth integer, key_id bigint, account_id bigint, key_prefix text, charge_id bigint, balance bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_call     jsonb;
  v_i        integer;
  v_price    bigint;
  v_caller   record;
  v_balance  bigint;
  v_balances jsonb := '{}';
  v_charged  jsonb := '{}';
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
    SELECT k.id, k.account_id, k.display_prefix
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
    charge_id := NULL;
    IF v_price > 0 AND v_balance >= v_price THEN
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
    END IF;
    v_balances := jsonb_set(v_balances, ARRAY[v_caller.account_id::text], to_jsonb(v_balance));
    balance := v_balance;
    RETURN NEXT;
  END LOOP;

  UPDATE accounts a
  SET balance = (v_balances ->> a.id::text)::bigint
  WHERE a.id IN (SELECT id::bigint FROM jsonb_object_keys(v_charged) AS id);
END;
$$;
