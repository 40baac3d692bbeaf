-- Up Migration

-- Checks a key and debits a run of calls made with it, in order, in one statement and one commit.
-- The service sends one call at a time per key, and the calls that arrived while that statement
-- was in flight together in the next, so a hot account pays one commit for many calls instead of
-- queueing every call on its balance row through its own commit.
--
-- Each call is decided as if it were alone, in array order: it is charged when the balance left
-- by the calls before it covers its price; otherwise it is refused with that balance. Charged
-- calls get their own ledger row with their own balance after. A price of 0 only reads the balance.
-- No row comes back when the key is unknown or revoked or its account disabled.
-- The calls come as a JSON array of {"price", "endpoint", "request_id"} objects, in order: the
-- service's pool does not load array types (see src/db/client.ts), and JSON needs none.
CREATE FUNCTION debit_credits(
  p_key_hash bytea,
  p_calls    jsonb
) RETURNS TABLE (nth integer, key_id bigint, account_id bigint, key_prefix text, charge_id bigint, balance bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_key_id     bigint;
  v_account_id bigint;
  v_prefix     text;
  v_balance    bigint;
  v_charged    boolean := false;
  v_call       jsonb;
  v_price      bigint;
BEGIN
  SELECT k.id, k.account_id, k.display_prefix
    INTO v_key_id, v_account_id, v_prefix
  FROM api_keys k
  JOIN accounts a ON a.id = k.account_id
  WHERE k.key_hash = p_key_hash
    AND k.revoked_at IS NULL
    AND a.disabled_at IS NULL;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  -- The row lock serializes debits of one account across keys and processes; it is only taken
  -- when something is to be charged, so a balance read never waits on a debit.
  IF EXISTS (SELECT FROM jsonb_array_elements(p_calls) AS c WHERE (c ->> 'price')::bigint > 0) THEN
    SELECT a.balance INTO v_balance FROM accounts a WHERE a.id = v_account_id FOR UPDATE;
  ELSE
    SELECT a.balance INTO v_balance FROM accounts a WHERE a.id = v_account_id;
  END IF;

  FOR i IN 1 .. jsonb_array_length(p_calls) LOOP
    v_call := p_calls -> (i - 1);
    v_price := (v_call ->> 'price')::bigint;
    nth := i; key_id := v_key_id; account_id := v_account_id; key_prefix := v_prefix; charge_id := NULL;
    IF v_price > 0 AND v_balance >= v_price THEN
      v_balance := v_balance - v_price;
      v_charged := true;
      INSERT INTO ledger (account_id, key_id, kind, amount, balance_after, endpoint, request_id)
      VALUES (v_account_id, v_key_id, 'charge', -v_price, v_balance, v_call ->> 'endpoint', v_call ->> 'request_id')
      RETURNING id INTO charge_id;
    END IF;
    balance := v_balance;
    RETURN NEXT;
  END LOOP;

  IF v_charged THEN
    UPDATE accounts a SET balance = v_balance WHERE a.id = v_account_id;
  END IF;
END;
$$;

-- Down Migration
DROP FUNCTION debit_credits(bytea, jsonb);
