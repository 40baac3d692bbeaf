-- Checks the keys of a run of calls and debits them, in order, in one statement and one commit.
-- The service keeps one such statement in flight and sends the calls that arrived meanwhile
-- together in the next, so concurrent calls share one round trip and one commit flush instead of
-- queueing, one commit each, on the pool and, for one hot account, on its balance row.
--
-- Each call is decided as if it were alone, in array order: it is charged when the balance its
-- account has after the calls before it covers its price; otherwise it is refused with that
-- balance. Charged calls get their own ledger row with their own balance after. A price of 0 only
-- reads the balance. A call whose key is unknown or revoked, or whose account is disabled, gets
-- no row back.
--
-- The calls come as a JSON array of {"key_hash" (hex), "price", "endpoint", "request_id"}: the
-- service's pool does not load array types (see src/data/client.ts), and JSON needs none.
CREATE FUNCTION debit_credits(p_calls jsonb)
RETURNS TABLE (nth integer, key_id bigint, account_id bigint, key_prefix text, charge_id bigint, balance bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_call     jsonb;
  v_i        integer;
  v_price    bigint;
  v_caller   record;
  v_balance  bigint;
  -- Balance of each account the run touched, by account id, as the calls so far left it.
  v_balances jsonb := '{}';
  -- The accounts the run charged (only those are written, and only those are locked).
  v_charged  jsonb := '{}';
BEGIN
  -- The accounts to be charged are locked first, in id order, so two runs (from two service
  -- processes) never wait on each other in a cycle. A balance read takes no lock.
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
