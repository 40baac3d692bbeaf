--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: sandbox; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA sandbox;

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

--
-- Name: advertiser_name_tokens_follow_names(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.advertiser_name_tokens_follow_names() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: advertiser_names_follow_rename(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.advertiser_names_follow_rename() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM advertiser_names a
   WHERE a.name = OLD.name AND NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = OLD.name);
  RETURN NULL;
END $$;

--
-- Name: debit_credits(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.debit_credits(p_calls jsonb) RETURNS TABLE(nth integer, key_id bigint, account_id bigint, key_prefix text, charge_id bigint, balance bigint, capped boolean, daily_cap bigint, spent_today bigint, sandbox boolean, rate_limited boolean, rate_used integer, rate_reset_ms integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  v_call     jsonb;
  v_i        integer;
  v_price    bigint;
  v_sandbox  boolean;
  v_caller   record;
  v_balance  bigint;
  v_spent    bigint;
  v_today    date := (now() AT TIME ZONE 'UTC')::date;
  v_balances jsonb := '{}';
  v_charged  jsonb := '{}';
  -- Per key charged in this statement (capped or not): the credits it charged.
  v_key_spent jsonb := '{}';
  -- Accounts whose armed alert this statement set off, with their threshold.
  v_alerted  jsonb := '{}';
  -- Per key counted by the rate limit: its window's count so far and the milliseconds to its end.
  v_windows  jsonb := '{}';
  v_window   record;
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

  -- The rate limit: each key's window counts the calls of this statement that carry
  -- `rate_limit` and that the loop below will find a caller for, in one upsert per key, made in
  -- key order so that two statements never wait for each other's windows.
  FOR v_window IN
    WITH counted AS (
      SELECT k.id AS key_id, count(*)::integer AS calls,
             max((c -> 'rate_limit' ->> 'window_seconds')::integer) AS window_seconds
      FROM jsonb_array_elements(p_calls) AS c
      JOIN api_keys k ON k.key_hash = decode(c ->> 'key_hash', 'hex') AND k.sandbox = (c ? 'sandbox')
      JOIN accounts a ON a.id = k.account_id
      WHERE c ? 'rate_limit' AND k.revoked_at IS NULL AND a.disabled_at IS NULL
      GROUP BY k.id
    ), taken AS (
      INSERT INTO rate_limit_windows AS w (key_id, window_ends_at, used)
      SELECT key_id, clock_timestamp() + make_interval(secs => window_seconds), calls FROM counted ORDER BY key_id
      ON CONFLICT (key_id) DO UPDATE
      SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.used ELSE w.used + excluded.used END,
          window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                                ELSE w.window_ends_at END
      RETURNING w.key_id, w.used, w.window_ends_at
    )
    SELECT taken.key_id, taken.used - counted.calls AS used_before,
           ceil(extract(epoch FROM taken.window_ends_at - clock_timestamp()) * 1000)::integer AS reset_ms
    FROM taken JOIN counted USING (key_id)
  LOOP
    v_windows := v_windows || jsonb_build_object(v_window.key_id::text,
      jsonb_build_object('used', v_window.used_before, 'reset_ms', v_window.reset_ms));
  END LOOP;

  FOR v_call, v_i IN SELECT value, ordinality FROM jsonb_array_elements(p_calls) WITH ORDINALITY LOOP
    SELECT k.id, k.account_id, k.display_prefix, k.daily_cap, a.low_balance_armed, a.low_balance_threshold,
      CASE WHEN k.cap_day = v_today THEN k.cap_day_spent ELSE 0 END AS spent_before
      INTO v_caller
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = decode(v_call ->> 'key_hash', 'hex')
      AND k.sandbox = (v_call ? 'sandbox')
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
    v_sandbox := v_call ? 'sandbox'; sandbox := v_sandbox;
    rate_limited := false; rate_used := NULL; rate_reset_ms := NULL;
    IF v_call ? 'rate_limit' THEN
      -- Counted in its key's window in order: the count before this call, plus itself.
      rate_used := (v_windows -> v_caller.id::text ->> 'used')::integer + 1;
      v_windows := jsonb_set(v_windows, ARRAY[v_caller.id::text, 'used'], to_jsonb(rate_used));
      rate_reset_ms := (v_windows -> v_caller.id::text ->> 'reset_ms')::integer;
      IF rate_used > (v_call -> 'rate_limit' ->> 'quota')::integer THEN
        -- Over the quota: refused before the cap and the balance are looked at, nothing charged.
        rate_limited := true;
        balance := v_balance;
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    v_spent := v_caller.spent_before + coalesce((v_key_spent ->> v_caller.id::text)::bigint, 0);
    spent_today := v_spent;
    IF v_caller.daily_cap IS NOT NULL THEN
      capped := v_price > 0 AND v_spent + v_price > v_caller.daily_cap;
    END IF;
    IF v_sandbox THEN
      -- A test key's call is free: no ledger row, no balance; only its spend counts what it would cost.
      IF v_price > 0 AND NOT capped THEN
        v_key_spent := v_key_spent || jsonb_build_object(
          v_caller.id::text, coalesce((v_key_spent ->> v_caller.id::text)::bigint, 0) + v_price);
        spent_today := spent_today + v_price;
      END IF;
    ELSIF v_price > 0 AND NOT capped AND v_balance >= v_price THEN
      v_balance := v_balance - v_price;
      INSERT INTO ledger (account_id, key_id, kind, amount, balance_after, endpoint, request_id, channel)
      VALUES (v_caller.account_id, v_caller.id, 'charge', -v_price, v_balance, v_call ->> 'endpoint',
              v_call ->> 'request_id', coalesce(v_call ->> 'channel', 'http'))
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
      v_key_spent := v_key_spent || jsonb_build_object(
        v_caller.id::text, coalesce((v_key_spent ->> v_caller.id::text)::bigint, 0) + v_price);
      spent_today := spent_today + v_price;
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

  -- The keys' spend, on their own rows (every key's, so that a cap set later and the page count
  -- what the key spent before). Measured in 00008 on 32-call statements: 0.955 of the speed of a
  -- statement that writes no spend, 0.84-0.87 with the spend kept as jsonb on the account's row.
  -- Relative, so a refund that lowered the spend meanwhile is never overwritten.
  IF v_key_spent <> '{}' THEN
    UPDATE api_keys k
    SET cap_day_spent = CASE WHEN k.cap_day = v_today THEN k.cap_day_spent ELSE 0 END
        + (v_key_spent ->> k.id::text)::bigint,
      cap_day = v_today
    WHERE k.id = ANY(ARRAY(SELECT id::bigint FROM jsonb_object_keys(v_key_spent) AS id));
  END IF;
END;
$$;

--
-- Name: landing_domain_stems_follow_domains(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.landing_domain_stems_follow_domains() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO landing_domain_stems (stem)
  SELECT DISTINCT split_part(n.domain, '.', 1) FROM new_domains n
  ON CONFLICT (stem) DO NOTHING;
  RETURN NULL;
END $$;

--
-- Name: rate_limit_standing(bytea); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rate_limit_standing(p_key_hash bytea) RETURNS TABLE(used integer, reset_ms integer)
    LANGUAGE sql STABLE
    AS $$
  SELECT w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
  FROM rate_limit_windows w JOIN api_keys k ON k.id = w.key_id
  WHERE k.key_hash = p_key_hash AND w.window_ends_at > clock_timestamp()
$$;

--
-- Name: similar_advertiser_names(text, integer[], text[], text[], json, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.similar_advertiser_names(q text, g integer[], words text[], tokens text[], parts json, n integer) RETURNS TABLE(name text, score real)
    LANGUAGE sql STABLE ROWS 10
    AS $$
  WITH common_names AS (
    SELECT greatest(50, (SELECT reltuples FROM pg_class WHERE oid = 'advertiser_names'::regclass) / 200)::integer AS at
  ),
  -- Each token with the query word it stands for: a word one edit away, or a token of the word.
  matched AS (
    SELECT v.word AS token, q.w AS of_word
      FROM (SELECT w, word_variants(w) AS variant
              FROM unnest(words) w
             -- A word some name has is taken as written: its neighbours would only crowd it out.
             WHERE NOT EXISTS (SELECT FROM advertiser_name_tokens e WHERE e.token = w)) q
      JOIN name_word_variants v ON v.variant = q.variant
    UNION
    SELECT t, p.word
      FROM json_to_recordset(parts) AS p(word text, tokens text[]) CROSS JOIN LATERAL unnest(p.tokens) t
    UNION
    SELECT t, t FROM unnest(tokens) t
  ),
  counted AS (
    SELECT m.token,
           (SELECT count(*)
              FROM (SELECT FROM advertiser_name_tokens p WHERE p.token = m.token
                     LIMIT greatest(1001, (SELECT at FROM common_names) + 1)) c) AS names
      FROM (SELECT DISTINCT token FROM matched) m
  ),
  chosen AS (
    SELECT token
      FROM (SELECT token,
                   sum(names) OVER (ORDER BY names, token) AS upto,
                   row_number() OVER (ORDER BY names, token) AS nth
              FROM counted
             WHERE names > 0) c
     WHERE upto <= 1000 OR nth = 1
  ),
  -- When even the rarest token is in more than 1,000 names, the names that also have the rarest
  -- token of another of the query's words, rather than the first 1,000 by name.
  rarest AS (
    SELECT m.token, m.of_word, c.names
      FROM matched m JOIN counted c USING (token)
     WHERE c.names > 0
     ORDER BY c.names, m.token, m.of_word
     LIMIT 1
  ),
  second AS (
    SELECT m.token
      FROM matched m JOIN counted c USING (token), rarest r
     WHERE c.names > 0 AND m.of_word <> r.of_word AND m.token <> r.token AND r.names > 1000
     ORDER BY c.names, m.token
     LIMIT 1
  ),
  narrowed AS (
    SELECT name
      FROM (SELECT p.name FROM advertiser_name_tokens p WHERE p.token = (SELECT token FROM rarest)
             INTERSECT
            SELECT p.name FROM advertiser_name_tokens p WHERE p.token = (SELECT token FROM second)) both_words
     LIMIT 1000
  ),
  candidates AS (
    SELECT name FROM narrowed
    UNION
    SELECT p.name
      FROM chosen c
      CROSS JOIN LATERAL (SELECT p.name FROM advertiser_name_tokens p WHERE p.token = c.token LIMIT 1000) p
     WHERE NOT EXISTS (SELECT FROM narrowed)
  ),
  query_parts AS (
    SELECT p.ord, p.word, p.grams,
           coalesce((SELECT min(c.names) FROM counted c WHERE c.token = ANY (p.tokens)), 0)
             >= (SELECT at FROM common_names) AS common
      FROM ROWS FROM (json_to_recordset(parts) AS (word text, tokens text[], grams integer[]))
           WITH ORDINALITY AS p(word, tokens, grams, ord)
  ),
  core AS (
    SELECT CASE WHEN q IS NOT NULL THEN string_agg(word, ' ' ORDER BY ord) FILTER (WHERE NOT common) END AS core_q,
           CASE WHEN g IS NOT NULL THEN
             (SELECT array_agg(DISTINCT x) FROM query_parts r CROSS JOIN LATERAL unnest(r.grams) x WHERE NOT r.common)
           END AS core_g
      FROM query_parts
    HAVING bool_or(common) AND NOT bool_and(common)
  )
  SELECT a.name, s.score
    FROM candidates c
    -- One index probe per candidate (OFFSET 0 keeps the planner from hashing every name instead).
    CROSS JOIN LATERAL (SELECT * FROM advertiser_names a WHERE a.name = c.name OFFSET 0) a
    LEFT JOIN core ON true
    CROSS JOIN LATERAL (SELECT count(*) AS shared FROM unnest(a.search_grams) x WHERE x = ANY (g)) whole
    CROSS JOIN LATERAL (SELECT count(*) AS shared FROM unnest(a.search_grams) x WHERE x = ANY (core.core_g)) part
    CROSS JOIN LATERAL (
      SELECT greatest(
               similarity(a.search_key, q),
               whole.shared::real / (cardinality(a.search_grams) + cardinality(g) - whole.shared)::real,
               0.9::real * greatest(
                 similarity(a.search_key, core.core_q),
                 part.shared::real / (cardinality(a.search_grams) + cardinality(core.core_g) - part.shared)::real
               )
             ) AS score
    ) s
   WHERE s.score >= 0.3::real
   ORDER BY s.score DESC, a.search_key, a.name
   LIMIT n
$$;

--
-- Name: similar_landing_domains(text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.similar_landing_domains(q text, n integer) RETURNS TABLE(domain text)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  v_stem text := split_part(q, '.', 1);
  v_stems text[] := '{}';
  v_threshold real;
  v_below real := 2;
  v_default text := coalesce(current_setting('pg_trgm.similarity_threshold', true), '0.3');
BEGIN
  -- pg_trgm loaded before its setting is set: set before the module is loaded, the setting is
  -- left empty when the transaction ends, and the session's next load of the module then fails.
  PERFORM similarity('', '');
  FOREACH v_threshold IN ARRAY ARRAY[0.6, 0.45, 0.3]::real[] LOOP
    PERFORM set_config('pg_trgm.similarity_threshold', (v_threshold - 0.001)::text, true);
    v_stems := v_stems || ARRAY(
      SELECT s.stem
        FROM landing_domain_stems s CROSS JOIN LATERAL (SELECT similarity(s.stem, v_stem) AS score) m
       WHERE s.stem % v_stem AND m.score >= v_threshold AND m.score < v_below
       ORDER BY m.score DESC, s.stem
       LIMIT n - cardinality(v_stems));
    EXIT WHEN cardinality(v_stems) >= n;
    v_below := v_threshold;
  END LOOP;
  PERFORM set_config('pg_trgm.similarity_threshold', v_default, true);
  RETURN QUERY
    SELECT d.domain FROM unnest(v_stems) WITH ORDINALITY AS s(stem, nth)
      JOIN landing_domain_stats d ON split_part(d.domain, '.', 1) = s.stem
     ORDER BY s.nth, d.domain <-> q, d.domain COLLATE "C"
     LIMIT n;
END $$;

--
-- Name: take_attempt(text, bytea, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.take_attempt(p_scope text, p_subject bytea, p_window_seconds integer) RETURNS TABLE(used integer, reset_ms integer)
    LANGUAGE sql
    AS $$
  INSERT INTO attempt_windows AS w (scope, subject, window_ends_at, used)
  VALUES (p_scope, p_subject, clock_timestamp() + make_interval(secs => p_window_seconds), 1)
  ON CONFLICT (scope, subject) DO UPDATE
  SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN 1 ELSE w.used + 1 END,
      window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                            ELSE w.window_ends_at END
  RETURNING w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
$$;

--
-- Name: take_rate_limit(bigint, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.take_rate_limit(p_key_id bigint, p_window_seconds integer) RETURNS TABLE(used integer, reset_ms integer)
    LANGUAGE sql
    AS $$
  INSERT INTO rate_limit_windows AS w (key_id, window_ends_at, used)
  VALUES (p_key_id, clock_timestamp() + make_interval(secs => p_window_seconds), 1)
  ON CONFLICT (key_id) DO UPDATE
  SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN 1 ELSE w.used + 1 END,
      window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                            ELSE w.window_ends_at END
  RETURNING w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
$$;

--
-- Name: word_variants(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.word_variants(word text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE ROWS 10 PARALLEL SAFE
    AS $$
  SELECT word
  UNION
  SELECT overlay(word PLACING '' FROM i FOR 1)
    FROM generate_series(1, length(word)) i
   WHERE length(word) BETWEEN 2 AND 32
$$;

SET default_table_access_method = heap;

--
-- Name: account_logins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_logins (
    account_id bigint NOT NULL,
    email text NOT NULL COLLATE pg_catalog."C",
    email_normalized text NOT NULL COLLATE pg_catalog."C",
    password_hash text NOT NULL,
    email_verified_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    password_changed_at timestamp with time zone DEFAULT now() NOT NULL,
    totp_secret text COLLATE pg_catalog."C",
    totp_enabled_at timestamp with time zone,
    totp_last_step bigint,
    CONSTRAINT account_logins_check CHECK (((totp_enabled_at IS NULL) OR (totp_secret IS NOT NULL))),
    CONSTRAINT account_logins_email_normalized_check CHECK ((email_normalized = lower(btrim(email_normalized)))),
    CONSTRAINT account_logins_password_hash_check CHECK ((password_hash ~~ '$argon2id$%'::text))
);

--
-- Name: account_recovery_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_recovery_codes (
    account_id bigint NOT NULL,
    code_hash bytea NOT NULL,
    used_at timestamp with time zone
);

--
-- Name: account_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_sessions (
    id_hash bytea NOT NULL,
    account_id bigint NOT NULL,
    csrf_token text NOT NULL COLLATE pg_catalog."C",
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    ended_at timestamp with time zone
);

--
-- Name: account_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_tokens (
    token_hash bytea NOT NULL,
    account_id bigint NOT NULL,
    purpose text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    new_email text COLLATE pg_catalog."C",
    CONSTRAINT account_tokens_new_email_check CHECK (((purpose = 'change_email'::text) = (new_email IS NOT NULL))),
    CONSTRAINT account_tokens_purpose_check CHECK ((purpose = ANY (ARRAY['verify_email'::text, 'reset_password'::text, 'change_email'::text])))
);

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    id bigint NOT NULL,
    email text COLLATE pg_catalog."C",
    balance bigint DEFAULT 0 NOT NULL,
    first_key_granted boolean DEFAULT false NOT NULL,
    disabled_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    low_balance_threshold bigint DEFAULT 50,
    low_balance_armed boolean DEFAULT true NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT accounts_balance_check CHECK ((balance >= 0)),
    CONSTRAINT accounts_low_balance_threshold_check CHECK (((low_balance_threshold IS NULL) OR (low_balance_threshold > 0)))
);

--
-- Name: accounts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.accounts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.accounts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: advertiser_name_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.advertiser_name_tokens (
    token text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: advertiser_names; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.advertiser_names (
    name text NOT NULL COLLATE pg_catalog."C",
    search_key text COLLATE pg_catalog."C",
    key_version smallint,
    search_grams integer[],
    search_tokens text[] COLLATE pg_catalog."C",
    CONSTRAINT advertiser_names_check CHECK (((search_key IS NULL) = (key_version IS NULL)))
);

--
-- Name: alert_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alert_attempts (
    delivery_id bigint NOT NULL,
    attempt integer NOT NULL,
    attempted_at timestamp with time zone DEFAULT now() NOT NULL,
    ok boolean NOT NULL,
    status integer,
    error text
);

--
-- Name: alert_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alert_deliveries (
    id bigint NOT NULL,
    alert_id bigint NOT NULL,
    account_id bigint NOT NULL,
    channel text NOT NULL,
    target text NOT NULL COLLATE pg_catalog."C",
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    delivered_at timestamp with time zone,
    given_up_at timestamp with time zone,
    last_error text,
    CONSTRAINT alert_deliveries_channel_check CHECK ((channel = ANY (ARRAY['email'::text, 'webhook'::text])))
);

--
-- Name: alert_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.alert_deliveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.alert_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: alert_test_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alert_test_events (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    url text NOT NULL COLLATE pg_catalog."C",
    host text NOT NULL COLLATE pg_catalog."C",
    event_id text NOT NULL COLLATE pg_catalog."C",
    sent_at timestamp with time zone DEFAULT now() NOT NULL,
    status integer,
    error text,
    done_at timestamp with time zone
);

--
-- Name: alert_test_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.alert_test_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.alert_test_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: alert_webhooks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alert_webhooks (
    account_id bigint NOT NULL,
    url text NOT NULL COLLATE pg_catalog."C",
    secret text NOT NULL COLLATE pg_catalog."C",
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT alert_webhooks_url_check CHECK (((url ~~ 'https://%'::text) AND (length(url) <= 2048)))
);

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    key_hash bytea NOT NULL,
    display_prefix text NOT NULL COLLATE pg_catalog."C",
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    name text COLLATE pg_catalog."C",
    last_used_at timestamp with time zone,
    daily_cap bigint,
    cap_day date,
    cap_day_spent bigint DEFAULT 0 NOT NULL,
    sandbox boolean DEFAULT false NOT NULL,
    CONSTRAINT api_keys_cap_day_spent_check CHECK ((cap_day_spent >= 0)),
    CONSTRAINT api_keys_daily_cap_check CHECK (((daily_cap IS NULL) OR (daily_cap > 0))),
    CONSTRAINT api_keys_name_check CHECK (((name IS NULL) OR ((length(name) >= 1) AND (length(name) <= 100))))
)
WITH (fillfactor='50');

--
-- Name: api_keys_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.api_keys ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.api_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: attempt_windows; Type: TABLE; Schema: public; Owner: -
--

CREATE UNLOGGED TABLE public.attempt_windows (
    scope text NOT NULL,
    subject bytea NOT NULL,
    window_ends_at timestamp with time zone NOT NULL,
    used integer NOT NULL
);

--
-- Name: balance_alerts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.balance_alerts (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    balance bigint NOT NULL,
    threshold bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expanded_at timestamp with time zone
);

--
-- Name: balance_alerts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.balance_alerts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.balance_alerts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: crawls; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.crawls (
    domain text NOT NULL COLLATE pg_catalog."C",
    last_crawled timestamp without time zone NOT NULL
);

--
-- Name: credit_purchase_payments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.credit_purchase_payments (
    payment_id text NOT NULL COLLATE pg_catalog."C",
    checkout_session_id text NOT NULL COLLATE pg_catalog."C",
    recorded bigint NOT NULL
);

--
-- Name: credit_purchase_payments_recorded_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.credit_purchase_payments ALTER COLUMN recorded ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.credit_purchase_payments_recorded_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: credit_purchases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.credit_purchases (
    checkout_session_id text NOT NULL COLLATE pg_catalog."C",
    account_id bigint NOT NULL,
    pack_id text NOT NULL COLLATE pg_catalog."C",
    credits bigint NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL COLLATE pg_catalog."C",
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    payment_reference text COLLATE pg_catalog."C",
    credited_at timestamp with time zone,
    amount_refunded bigint DEFAULT 0 NOT NULL,
    disputed_at timestamp with time zone,
    credits_reversed bigint DEFAULT 0 NOT NULL,
    CONSTRAINT credit_purchases_amount_check CHECK ((amount > 0)),
    CONSTRAINT credit_purchases_amount_refunded_check CHECK ((amount_refunded >= 0)),
    CONSTRAINT credit_purchases_credits_check CHECK ((credits > 0)),
    CONSTRAINT credit_purchases_credits_reversed_check CHECK ((credits_reversed >= 0))
);

--
-- Name: database_functions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.database_functions (
    file text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    account_id bigint NOT NULL,
    idempotency_key text NOT NULL COLLATE pg_catalog."C",
    operation text NOT NULL COLLATE pg_catalog."C",
    query text NOT NULL COLLATE pg_catalog."C",
    state text NOT NULL,
    request_id text NOT NULL COLLATE pg_catalog."C",
    charge_id bigint,
    response_status smallint,
    response_content_type text,
    response_body bytea,
    created_at timestamp with time zone NOT NULL,
    claimed_at timestamp with time zone NOT NULL,
    run_id uuid,
    sandbox boolean DEFAULT false NOT NULL,
    CONSTRAINT idempotency_keys_completed_check CHECK (((state = 'completed'::text) = ((response_status IS NOT NULL) AND (response_body IS NOT NULL) AND ((charge_id IS NOT NULL) OR sandbox)))),
    CONSTRAINT idempotency_keys_idempotency_key_check CHECK ((idempotency_key ~ '^[!-~]{1,255}$'::text)),
    CONSTRAINT idempotency_keys_state_check CHECK ((state = ANY (ARRAY['running'::text, 'completed'::text])))
);

--
-- Name: COLUMN idempotency_keys.request_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.idempotency_keys.request_id IS 'The call holding the key: an id the service makes for each call, never the caller''s X-Request-Id.';

--
-- Name: identifier_domains; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identifier_domains (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    landing_domain text NOT NULL COLLATE pg_catalog."C",
    creatives integer NOT NULL,
    first_seen date NOT NULL,
    last_seen date NOT NULL,
    CONSTRAINT identifier_domains_creatives_check CHECK ((creatives >= 0))
);

--
-- Name: identifier_month_domains; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identifier_month_domains (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    landing_domain text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: identifier_months; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identifier_months (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    creatives integer NOT NULL,
    CONSTRAINT identifier_months_creatives_check CHECK ((creatives >= 0))
)
WITH (fillfactor='70');

--
-- Name: identifiers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identifiers (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    country character(2) NOT NULL COLLATE pg_catalog."C",
    name_seen_on date NOT NULL,
    name_ingest_seq bigint NOT NULL,
    creatives integer NOT NULL,
    landing_domains integer NOT NULL,
    first_seen date NOT NULL,
    last_seen date NOT NULL,
    CONSTRAINT identifiers_advertiser_id_check CHECK ((advertiser_id ~ '^AR[0-9]{1,30}$'::text)),
    CONSTRAINT identifiers_creatives_check CHECK ((creatives >= 0)),
    CONSTRAINT identifiers_landing_domains_check CHECK ((landing_domains >= 0))
)
WITH (fillfactor='70');

--
-- Name: ingest_batches; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ingest_batches
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: labels; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.labels (
    advertiser_name text NOT NULL COLLATE pg_catalog."C",
    advertiser_type text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT labels_advertiser_type_check CHECK ((advertiser_type = ANY (ARRAY['agency'::text, 'direct'::text])))
);

--
-- Name: landing_domain_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.landing_domain_stats (
    domain text NOT NULL COLLATE pg_catalog."C",
    advertisers integer NOT NULL,
    CONSTRAINT landing_domain_stats_advertisers_check CHECK ((advertisers >= 0))
)
WITH (fillfactor='70');

--
-- Name: landing_domain_stems; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.landing_domain_stems (
    stem text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: ledger; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    key_id bigint,
    kind text NOT NULL,
    amount bigint NOT NULL,
    balance_after bigint NOT NULL,
    endpoint text COLLATE pg_catalog."C",
    request_id text COLLATE pg_catalog."C",
    payment_reference text COLLATE pg_catalog."C",
    refund_of bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    reversal_of bigint,
    owed bigint,
    channel text DEFAULT 'http'::text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT ledger_amount_sign CHECK ((((kind = 'charge'::text) AND (amount < 0)) OR ((kind = ANY (ARRAY['grant'::text, 'purchase'::text, 'refund'::text])) AND (amount > 0)) OR ((kind = 'reversal'::text) AND (amount <= 0)))),
    CONSTRAINT ledger_balance_after_check CHECK ((balance_after >= 0)),
    CONSTRAINT ledger_channel_check CHECK ((channel = ANY (ARRAY['http'::text, 'mcp'::text]))),
    CONSTRAINT ledger_kinds CHECK ((kind = ANY (ARRAY['grant'::text, 'purchase'::text, 'charge'::text, 'refund'::text, 'reversal'::text]))),
    CONSTRAINT ledger_owed_check CHECK (((owed IS NULL) OR (owed >= 0))),
    CONSTRAINT ledger_purchase_reference CHECK (((kind = 'purchase'::text) = (payment_reference IS NOT NULL))),
    CONSTRAINT ledger_refund_of CHECK (((kind = 'refund'::text) = (refund_of IS NOT NULL))),
    CONSTRAINT ledger_reversal_of CHECK (((kind = 'reversal'::text) = ((reversal_of IS NOT NULL) AND (owed IS NOT NULL))))
);

--
-- Name: ledger_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.ledger ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ledger_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.migrations (
    migration_id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    name text
);

--
-- Name: migrations_migration_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.migrations_migration_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: migrations_migration_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.migrations_migration_id_seq OWNED BY public.migrations.migration_id;

--
-- Name: name_word_variants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.name_word_variants (
    variant text NOT NULL COLLATE pg_catalog."C",
    word text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: name_words; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.name_words (
    word text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: new_key_flashes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.new_key_flashes (
    session_id_hash bytea NOT NULL,
    key_id bigint NOT NULL,
    sealed bytea NOT NULL,
    granted bigint NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: observations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.observations (
    creative_id text NOT NULL COLLATE pg_catalog."C",
    seen_on date NOT NULL,
    landing_domain text NOT NULL COLLATE pg_catalog."C",
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    advertiser_name text NOT NULL COLLATE pg_catalog."C",
    country character(2) NOT NULL COLLATE pg_catalog."C",
    ingest_seq bigint NOT NULL,
    CONSTRAINT observations_country_check CHECK ((country ~ '^[A-Z]{2}$'::text))
);

--
-- Name: rate_limit_windows; Type: TABLE; Schema: public; Owner: -
--

CREATE UNLOGGED TABLE public.rate_limit_windows (
    key_id bigint NOT NULL,
    window_ends_at timestamp with time zone NOT NULL,
    used integer NOT NULL
);

--
-- Name: service_runs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.service_runs (
    id uuid NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL,
    ended_at timestamp with time zone
);

--
-- Name: sign_in_challenges; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sign_in_challenges (
    id_hash bytea NOT NULL,
    account_id bigint NOT NULL,
    next text NOT NULL COLLATE pg_catalog."C",
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: undelivered_charges; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.undelivered_charges (
    charge_id bigint NOT NULL,
    call_id uuid NOT NULL,
    run_id uuid NOT NULL,
    account_id bigint NOT NULL,
    idempotency_key text COLLATE pg_catalog."C"
);

--
-- Name: watch_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watch_deliveries (
    id bigint NOT NULL,
    watch_id uuid NOT NULL,
    account_id bigint NOT NULL,
    digest_id bigint NOT NULL,
    sandbox boolean NOT NULL,
    events integer NOT NULL,
    part integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    billing text DEFAULT 'due'::text NOT NULL,
    charge_id bigint,
    refund_id bigint,
    billing_locked_until timestamp with time zone,
    webhook_url text COLLATE pg_catalog."C",
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    delivered_at timestamp with time zone,
    given_up_at timestamp with time zone,
    last_status integer,
    last_error text,
    CONSTRAINT watch_deliveries_billing_check CHECK ((billing = ANY (ARRAY['due'::text, 'held'::text, 'paid'::text, 'free'::text, 'refunded'::text]))),
    CONSTRAINT watch_deliveries_check CHECK (((billing = ANY (ARRAY['paid'::text, 'refunded'::text])) = (charge_id IS NOT NULL))),
    CONSTRAINT watch_deliveries_check1 CHECK (((billing = 'refunded'::text) = (refund_id IS NOT NULL))),
    CONSTRAINT watch_deliveries_events_check CHECK ((events >= 1))
);

--
-- Name: watch_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.watch_deliveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.watch_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: watch_digests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watch_digests (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    sent_at timestamp with time zone,
    given_up_at timestamp with time zone,
    last_error text
);

--
-- Name: watch_digests_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.watch_digests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.watch_digests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: watch_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watch_events (
    id bigint NOT NULL,
    watch_id uuid NOT NULL,
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    advertiser text NOT NULL COLLATE pg_catalog."C",
    landing_domain text NOT NULL COLLATE pg_catalog."C",
    first_seen date NOT NULL,
    landing_domain_count integer NOT NULL,
    found_at timestamp with time zone DEFAULT now() NOT NULL,
    delivery_id bigint,
    CONSTRAINT watch_events_landing_domain_count_check CHECK ((landing_domain_count >= 1))
);

--
-- Name: watch_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.watch_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.watch_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: watch_hold_notices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watch_hold_notices (
    account_id bigint NOT NULL,
    held_at timestamp with time zone DEFAULT now() NOT NULL,
    emailed_at timestamp with time zone
);

--
-- Name: watches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id bigint NOT NULL,
    key_id bigint,
    kind text NOT NULL COLLATE pg_catalog."C",
    target text NOT NULL COLLATE pg_catalog."C",
    sandbox boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    "position" bigint NOT NULL,
    CONSTRAINT watches_kind_check CHECK ((kind = ANY (ARRAY['domain'::text, 'advertiser'::text]))),
    CONSTRAINT watches_target_check CHECK (((length(target) >= 1) AND (length(target) <= 2048)))
);

--
-- Name: watches_position_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.watches ALTER COLUMN "position" ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.watches_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: advertiser_name_tokens; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.advertiser_name_tokens (
    token text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: advertiser_names; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.advertiser_names (
    name text NOT NULL COLLATE pg_catalog."C",
    search_key text COLLATE pg_catalog."C",
    key_version smallint,
    search_grams integer[],
    search_tokens text[] COLLATE pg_catalog."C",
    CONSTRAINT advertiser_names_check CHECK (((search_key IS NULL) = (key_version IS NULL)))
);

--
-- Name: crawls; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.crawls (
    domain text NOT NULL COLLATE pg_catalog."C",
    last_crawled timestamp without time zone NOT NULL
);

--
-- Name: identifier_domains; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.identifier_domains (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    landing_domain text NOT NULL COLLATE pg_catalog."C",
    creatives integer NOT NULL,
    first_seen date NOT NULL,
    last_seen date NOT NULL,
    CONSTRAINT identifier_domains_creatives_check CHECK ((creatives >= 0))
);

--
-- Name: identifier_month_domains; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.identifier_month_domains (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    landing_domain text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: identifier_months; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.identifier_months (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    creatives integer NOT NULL,
    CONSTRAINT identifier_months_creatives_check CHECK ((creatives >= 0))
)
WITH (fillfactor='70');

--
-- Name: identifiers; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.identifiers (
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    country character(2) NOT NULL COLLATE pg_catalog."C",
    name_seen_on date NOT NULL,
    name_ingest_seq bigint NOT NULL,
    creatives integer NOT NULL,
    landing_domains integer NOT NULL,
    first_seen date NOT NULL,
    last_seen date NOT NULL,
    CONSTRAINT identifiers_advertiser_id_check CHECK ((advertiser_id ~ '^AR[0-9]{1,30}$'::text)),
    CONSTRAINT identifiers_creatives_check CHECK ((creatives >= 0)),
    CONSTRAINT identifiers_landing_domains_check CHECK ((landing_domains >= 0))
)
WITH (fillfactor='70');

--
-- Name: labels; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.labels (
    advertiser_name text NOT NULL COLLATE pg_catalog."C",
    advertiser_type text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT labels_advertiser_type_check CHECK ((advertiser_type = ANY (ARRAY['agency'::text, 'direct'::text])))
);

--
-- Name: landing_domain_stats; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.landing_domain_stats (
    domain text NOT NULL COLLATE pg_catalog."C",
    advertisers integer NOT NULL,
    CONSTRAINT landing_domain_stats_advertisers_check CHECK ((advertisers >= 0))
)
WITH (fillfactor='70');

--
-- Name: landing_domain_stems; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.landing_domain_stems (
    stem text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: name_word_variants; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.name_word_variants (
    variant text NOT NULL COLLATE pg_catalog."C",
    word text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: name_words; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.name_words (
    word text NOT NULL COLLATE pg_catalog."C"
);

--
-- Name: observations; Type: TABLE; Schema: sandbox; Owner: -
--

CREATE TABLE sandbox.observations (
    creative_id text NOT NULL COLLATE pg_catalog."C",
    seen_on date NOT NULL,
    landing_domain text NOT NULL COLLATE pg_catalog."C",
    advertiser_id text NOT NULL COLLATE pg_catalog."C",
    advertiser_name text NOT NULL COLLATE pg_catalog."C",
    country character(2) NOT NULL COLLATE pg_catalog."C",
    ingest_seq bigint NOT NULL,
    CONSTRAINT observations_country_check CHECK ((country ~ '^[A-Z]{2}$'::text))
);

--
-- Name: migrations migration_id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.migrations ALTER COLUMN migration_id SET DEFAULT nextval('public.migrations_migration_id_seq'::regclass);

--
-- Name: account_logins account_logins_email_normalized_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_logins
    ADD CONSTRAINT account_logins_email_normalized_key UNIQUE (email_normalized);

--
-- Name: account_logins account_logins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_logins
    ADD CONSTRAINT account_logins_pkey PRIMARY KEY (account_id);

--
-- Name: account_recovery_codes account_recovery_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_recovery_codes
    ADD CONSTRAINT account_recovery_codes_pkey PRIMARY KEY (account_id, code_hash);

--
-- Name: account_sessions account_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_sessions
    ADD CONSTRAINT account_sessions_pkey PRIMARY KEY (id_hash);

--
-- Name: account_tokens account_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tokens
    ADD CONSTRAINT account_tokens_pkey PRIMARY KEY (token_hash);

--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);

--
-- Name: advertiser_name_tokens advertiser_name_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.advertiser_name_tokens
    ADD CONSTRAINT advertiser_name_tokens_pkey PRIMARY KEY (token, name);

--
-- Name: advertiser_names advertiser_names_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.advertiser_names
    ADD CONSTRAINT advertiser_names_pkey PRIMARY KEY (name);

--
-- Name: alert_attempts alert_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_attempts
    ADD CONSTRAINT alert_attempts_pkey PRIMARY KEY (delivery_id, attempt);

--
-- Name: alert_deliveries alert_deliveries_alert_id_channel_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_deliveries
    ADD CONSTRAINT alert_deliveries_alert_id_channel_key UNIQUE (alert_id, channel);

--
-- Name: alert_deliveries alert_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_deliveries
    ADD CONSTRAINT alert_deliveries_pkey PRIMARY KEY (id);

--
-- Name: alert_test_events alert_test_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_test_events
    ADD CONSTRAINT alert_test_events_pkey PRIMARY KEY (id);

--
-- Name: alert_webhooks alert_webhooks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_webhooks
    ADD CONSTRAINT alert_webhooks_pkey PRIMARY KEY (account_id);

--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

--
-- Name: attempt_windows attempt_windows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attempt_windows
    ADD CONSTRAINT attempt_windows_pkey PRIMARY KEY (scope, subject);

--
-- Name: balance_alerts balance_alerts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.balance_alerts
    ADD CONSTRAINT balance_alerts_pkey PRIMARY KEY (id);

--
-- Name: crawls crawls_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crawls
    ADD CONSTRAINT crawls_pkey PRIMARY KEY (domain);

--
-- Name: credit_purchase_payments credit_purchase_payments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.credit_purchase_payments
    ADD CONSTRAINT credit_purchase_payments_pkey PRIMARY KEY (payment_id);

--
-- Name: credit_purchases credit_purchases_payment_reference_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.credit_purchases
    ADD CONSTRAINT credit_purchases_payment_reference_key UNIQUE (payment_reference);

--
-- Name: credit_purchases credit_purchases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.credit_purchases
    ADD CONSTRAINT credit_purchases_pkey PRIMARY KEY (checkout_session_id);

--
-- Name: database_functions database_functions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.database_functions
    ADD CONSTRAINT database_functions_pkey PRIMARY KEY (file);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (account_id, idempotency_key);

--
-- Name: identifier_domains identifier_domains_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identifier_domains
    ADD CONSTRAINT identifier_domains_pkey PRIMARY KEY (advertiser_id, landing_domain);

--
-- Name: identifier_month_domains identifier_month_domains_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identifier_month_domains
    ADD CONSTRAINT identifier_month_domains_pkey PRIMARY KEY (advertiser_id, month, landing_domain);

--
-- Name: identifier_months identifier_months_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identifier_months
    ADD CONSTRAINT identifier_months_pkey PRIMARY KEY (advertiser_id, month);

--
-- Name: identifiers identifiers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identifiers
    ADD CONSTRAINT identifiers_pkey PRIMARY KEY (advertiser_id);

--
-- Name: labels labels_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.labels
    ADD CONSTRAINT labels_pkey PRIMARY KEY (advertiser_name);

--
-- Name: landing_domain_stats landing_domain_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.landing_domain_stats
    ADD CONSTRAINT landing_domain_stats_pkey PRIMARY KEY (domain);

--
-- Name: landing_domain_stems landing_domain_stems_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.landing_domain_stems
    ADD CONSTRAINT landing_domain_stems_pkey PRIMARY KEY (stem);

--
-- Name: ledger ledger_payment_reference_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_payment_reference_key UNIQUE (payment_reference);

--
-- Name: ledger ledger_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_pkey PRIMARY KEY (id);

--
-- Name: ledger ledger_refund_of_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_refund_of_key UNIQUE (refund_of);

--
-- Name: migrations migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (migration_id);

--
-- Name: name_word_variants name_word_variants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.name_word_variants
    ADD CONSTRAINT name_word_variants_pkey PRIMARY KEY (variant, word);

--
-- Name: name_words name_words_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.name_words
    ADD CONSTRAINT name_words_pkey PRIMARY KEY (word);

--
-- Name: new_key_flashes new_key_flashes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.new_key_flashes
    ADD CONSTRAINT new_key_flashes_pkey PRIMARY KEY (session_id_hash);

--
-- Name: observations observations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observations
    ADD CONSTRAINT observations_pkey PRIMARY KEY (creative_id, seen_on, landing_domain);

--
-- Name: rate_limit_windows rate_limit_windows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limit_windows
    ADD CONSTRAINT rate_limit_windows_pkey PRIMARY KEY (key_id);

--
-- Name: service_runs service_runs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.service_runs
    ADD CONSTRAINT service_runs_pkey PRIMARY KEY (id);

--
-- Name: sign_in_challenges sign_in_challenges_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_challenges
    ADD CONSTRAINT sign_in_challenges_pkey PRIMARY KEY (id_hash);

--
-- Name: undelivered_charges undelivered_charges_call_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.undelivered_charges
    ADD CONSTRAINT undelivered_charges_call_id_key UNIQUE (call_id);

--
-- Name: undelivered_charges undelivered_charges_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.undelivered_charges
    ADD CONSTRAINT undelivered_charges_pkey PRIMARY KEY (charge_id);

--
-- Name: watch_deliveries watch_deliveries_charge_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_charge_id_key UNIQUE (charge_id);

--
-- Name: watch_deliveries watch_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_pkey PRIMARY KEY (id);

--
-- Name: watch_deliveries watch_deliveries_refund_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_refund_id_key UNIQUE (refund_id);

--
-- Name: watch_digests watch_digests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_digests
    ADD CONSTRAINT watch_digests_pkey PRIMARY KEY (id);

--
-- Name: watch_events watch_events_once; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_events
    ADD CONSTRAINT watch_events_once UNIQUE (watch_id, advertiser_id, landing_domain);

--
-- Name: watch_events watch_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_events
    ADD CONSTRAINT watch_events_pkey PRIMARY KEY (id);

--
-- Name: watch_hold_notices watch_hold_notices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_hold_notices
    ADD CONSTRAINT watch_hold_notices_pkey PRIMARY KEY (account_id);

--
-- Name: watches watches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watches
    ADD CONSTRAINT watches_pkey PRIMARY KEY (id);

--
-- Name: advertiser_name_tokens advertiser_name_tokens_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.advertiser_name_tokens
    ADD CONSTRAINT advertiser_name_tokens_pkey PRIMARY KEY (token, name);

--
-- Name: advertiser_names advertiser_names_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.advertiser_names
    ADD CONSTRAINT advertiser_names_pkey PRIMARY KEY (name);

--
-- Name: crawls crawls_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.crawls
    ADD CONSTRAINT crawls_pkey PRIMARY KEY (domain);

--
-- Name: identifier_domains identifier_domains_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.identifier_domains
    ADD CONSTRAINT identifier_domains_pkey PRIMARY KEY (advertiser_id, landing_domain);

--
-- Name: identifier_month_domains identifier_month_domains_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.identifier_month_domains
    ADD CONSTRAINT identifier_month_domains_pkey PRIMARY KEY (advertiser_id, month, landing_domain);

--
-- Name: identifier_months identifier_months_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.identifier_months
    ADD CONSTRAINT identifier_months_pkey PRIMARY KEY (advertiser_id, month);

--
-- Name: identifiers identifiers_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.identifiers
    ADD CONSTRAINT identifiers_pkey PRIMARY KEY (advertiser_id);

--
-- Name: labels labels_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.labels
    ADD CONSTRAINT labels_pkey PRIMARY KEY (advertiser_name);

--
-- Name: landing_domain_stats landing_domain_stats_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.landing_domain_stats
    ADD CONSTRAINT landing_domain_stats_pkey PRIMARY KEY (domain);

--
-- Name: landing_domain_stems landing_domain_stems_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.landing_domain_stems
    ADD CONSTRAINT landing_domain_stems_pkey PRIMARY KEY (stem);

--
-- Name: name_word_variants name_word_variants_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.name_word_variants
    ADD CONSTRAINT name_word_variants_pkey PRIMARY KEY (variant, word);

--
-- Name: name_words name_words_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.name_words
    ADD CONSTRAINT name_words_pkey PRIMARY KEY (word);

--
-- Name: observations observations_pkey; Type: CONSTRAINT; Schema: sandbox; Owner: -
--

ALTER TABLE ONLY sandbox.observations
    ADD CONSTRAINT observations_pkey PRIMARY KEY (creative_id, seen_on, landing_domain);

--
-- Name: account_sessions_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_sessions_by_account ON public.account_sessions USING btree (account_id) WHERE (ended_at IS NULL);

--
-- Name: account_tokens_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_tokens_by_account ON public.account_tokens USING btree (account_id, purpose) WHERE (used_at IS NULL);

--
-- Name: advertiser_names_by_key_version; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX advertiser_names_by_key_version ON public.advertiser_names USING btree (key_version);

--
-- Name: advertiser_names_by_search_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX advertiser_names_by_search_key ON public.advertiser_names USING btree (search_key, name);

--
-- Name: alert_deliveries_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alert_deliveries_by_account ON public.alert_deliveries USING btree (account_id, id);

--
-- Name: alert_deliveries_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alert_deliveries_due ON public.alert_deliveries USING btree (next_attempt_at) WHERE ((delivered_at IS NULL) AND (given_up_at IS NULL));

--
-- Name: alert_test_events_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alert_test_events_by_account ON public.alert_test_events USING btree (account_id, sent_at);

--
-- Name: alert_test_events_by_host; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX alert_test_events_by_host ON public.alert_test_events USING btree (host, sent_at);

--
-- Name: api_keys_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_by_account ON public.api_keys USING btree (account_id);

--
-- Name: balance_alerts_to_expand; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX balance_alerts_to_expand ON public.balance_alerts USING btree (id) WHERE (expanded_at IS NULL);

--
-- Name: credit_purchase_payments_by_session; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX credit_purchase_payments_by_session ON public.credit_purchase_payments USING btree (checkout_session_id, recorded);

--
-- Name: credit_purchases_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX credit_purchases_by_account ON public.credit_purchases USING btree (account_id, created_at);

--
-- Name: idempotency_keys_by_age; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_keys_by_age ON public.idempotency_keys USING btree (created_at);

--
-- Name: identifier_domains_by_domain; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX identifier_domains_by_domain ON public.identifier_domains USING btree (landing_domain, creatives DESC, last_seen DESC, advertiser_id);

--
-- Name: identifiers_by_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX identifiers_by_name ON public.identifiers USING btree (name);

--
-- Name: landing_domain_stats_by_stem; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX landing_domain_stats_by_stem ON public.landing_domain_stats USING btree (split_part(domain, '.'::text, 1));

--
-- Name: landing_domain_stems_by_trigrams; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX landing_domain_stems_by_trigrams ON public.landing_domain_stems USING gin (stem public.gin_trgm_ops) WITH (gin_pending_list_limit='256');

--
-- Name: ledger_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_by_account ON public.ledger USING btree (account_id, id);

--
-- Name: ledger_reversals; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_reversals ON public.ledger USING btree (reversal_of) WHERE (reversal_of IS NOT NULL);

--
-- Name: new_key_flashes_by_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX new_key_flashes_by_expiry ON public.new_key_flashes USING btree (expires_at);

--
-- Name: watch_deliveries_of_digest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_deliveries_of_digest ON public.watch_deliveries USING btree (digest_id);

--
-- Name: watch_deliveries_to_bill; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_deliveries_to_bill ON public.watch_deliveries USING btree (account_id, id) WHERE (billing = ANY (ARRAY['due'::text, 'held'::text]));

--
-- Name: watch_deliveries_to_post; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_deliveries_to_post ON public.watch_deliveries USING btree (next_attempt_at) WHERE ((webhook_url IS NOT NULL) AND (delivered_at IS NULL) AND (given_up_at IS NULL));

--
-- Name: watch_digests_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_digests_due ON public.watch_digests USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (given_up_at IS NULL));

--
-- Name: watch_events_by_delivery; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_events_by_delivery ON public.watch_events USING btree (delivery_id);

--
-- Name: watch_events_by_watch; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_events_by_watch ON public.watch_events USING btree (watch_id, id);

--
-- Name: watch_events_unqueued; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watch_events_unqueued ON public.watch_events USING btree (watch_id, id) WHERE (delivery_id IS NULL);

--
-- Name: watches_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watches_by_account ON public.watches USING btree (account_id, created_at, id) WHERE (deleted_at IS NULL);

--
-- Name: watches_by_account_position; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX watches_by_account_position ON public.watches USING btree (account_id, sandbox, "position") WHERE (deleted_at IS NULL);

--
-- Name: watches_by_target; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX watches_by_target ON public.watches USING btree (sandbox, kind, target) WHERE (deleted_at IS NULL);

--
-- Name: watches_one_per_target; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX watches_one_per_target ON public.watches USING btree (account_id, sandbox, kind, target) WHERE (deleted_at IS NULL);

--
-- Name: advertiser_names_by_key_version; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX advertiser_names_by_key_version ON sandbox.advertiser_names USING btree (key_version);

--
-- Name: advertiser_names_by_search_key; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX advertiser_names_by_search_key ON sandbox.advertiser_names USING btree (search_key, name);

--
-- Name: identifier_domains_landing_domain_creatives_last_seen_adver_idx; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX identifier_domains_landing_domain_creatives_last_seen_adver_idx ON sandbox.identifier_domains USING btree (landing_domain, creatives DESC, last_seen DESC, advertiser_id);

--
-- Name: identifiers_name_idx; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX identifiers_name_idx ON sandbox.identifiers USING btree (name);

--
-- Name: landing_domain_stats_by_stem; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX landing_domain_stats_by_stem ON sandbox.landing_domain_stats USING btree (split_part(domain, '.'::text, 1));

--
-- Name: landing_domain_stems_by_trigrams; Type: INDEX; Schema: sandbox; Owner: -
--

CREATE INDEX landing_domain_stems_by_trigrams ON sandbox.landing_domain_stems USING gin (stem public.gin_trgm_ops) WITH (gin_pending_list_limit='256');

--
-- Name: advertiser_names advertiser_name_tokens_on_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_delete AFTER DELETE ON public.advertiser_names REFERENCING OLD TABLE AS old_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: advertiser_names advertiser_name_tokens_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_insert AFTER INSERT ON public.advertiser_names REFERENCING NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: advertiser_names advertiser_name_tokens_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_update AFTER UPDATE ON public.advertiser_names REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: identifiers advertiser_names_on_rename; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON public.identifiers FOR EACH ROW WHEN ((old.name IS DISTINCT FROM new.name)) EXECUTE FUNCTION public.advertiser_names_follow_rename();

--
-- Name: landing_domain_stats landing_domain_stems_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER landing_domain_stems_on_insert AFTER INSERT ON public.landing_domain_stats REFERENCING NEW TABLE AS new_domains FOR EACH STATEMENT EXECUTE FUNCTION public.landing_domain_stems_follow_domains();

--
-- Name: advertiser_names advertiser_name_tokens_on_delete; Type: TRIGGER; Schema: sandbox; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_delete AFTER DELETE ON sandbox.advertiser_names REFERENCING OLD TABLE AS old_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: advertiser_names advertiser_name_tokens_on_insert; Type: TRIGGER; Schema: sandbox; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_insert AFTER INSERT ON sandbox.advertiser_names REFERENCING NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: advertiser_names advertiser_name_tokens_on_update; Type: TRIGGER; Schema: sandbox; Owner: -
--

CREATE TRIGGER advertiser_name_tokens_on_update AFTER UPDATE ON sandbox.advertiser_names REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION public.advertiser_name_tokens_follow_names();

--
-- Name: identifiers advertiser_names_on_rename; Type: TRIGGER; Schema: sandbox; Owner: -
--

CREATE TRIGGER advertiser_names_on_rename AFTER UPDATE OF name ON sandbox.identifiers FOR EACH ROW WHEN ((old.name IS DISTINCT FROM new.name)) EXECUTE FUNCTION public.advertiser_names_follow_rename();

--
-- Name: landing_domain_stats landing_domain_stems_on_insert; Type: TRIGGER; Schema: sandbox; Owner: -
--

CREATE TRIGGER landing_domain_stems_on_insert AFTER INSERT ON sandbox.landing_domain_stats REFERENCING NEW TABLE AS new_domains FOR EACH STATEMENT EXECUTE FUNCTION public.landing_domain_stems_follow_domains();

--
-- Name: account_logins account_logins_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_logins
    ADD CONSTRAINT account_logins_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: account_recovery_codes account_recovery_codes_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_recovery_codes
    ADD CONSTRAINT account_recovery_codes_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: account_sessions account_sessions_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_sessions
    ADD CONSTRAINT account_sessions_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: account_tokens account_tokens_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_tokens
    ADD CONSTRAINT account_tokens_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: alert_attempts alert_attempts_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_attempts
    ADD CONSTRAINT alert_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.alert_deliveries(id);

--
-- Name: alert_deliveries alert_deliveries_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_deliveries
    ADD CONSTRAINT alert_deliveries_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: alert_deliveries alert_deliveries_alert_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_deliveries
    ADD CONSTRAINT alert_deliveries_alert_id_fkey FOREIGN KEY (alert_id) REFERENCES public.balance_alerts(id);

--
-- Name: alert_test_events alert_test_events_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_test_events
    ADD CONSTRAINT alert_test_events_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: alert_webhooks alert_webhooks_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alert_webhooks
    ADD CONSTRAINT alert_webhooks_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: api_keys api_keys_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: balance_alerts balance_alerts_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.balance_alerts
    ADD CONSTRAINT balance_alerts_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: credit_purchase_payments credit_purchase_payments_checkout_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.credit_purchase_payments
    ADD CONSTRAINT credit_purchase_payments_checkout_session_id_fkey FOREIGN KEY (checkout_session_id) REFERENCES public.credit_purchases(checkout_session_id);

--
-- Name: credit_purchases credit_purchases_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.credit_purchases
    ADD CONSTRAINT credit_purchases_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: idempotency_keys idempotency_keys_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: idempotency_keys idempotency_keys_charge_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_charge_id_fkey FOREIGN KEY (charge_id) REFERENCES public.ledger(id);

--
-- Name: ledger ledger_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: ledger ledger_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_key_id_fkey FOREIGN KEY (key_id) REFERENCES public.api_keys(id);

--
-- Name: ledger ledger_refund_of_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_refund_of_fkey FOREIGN KEY (refund_of) REFERENCES public.ledger(id);

--
-- Name: ledger ledger_reversal_of_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_reversal_of_fkey FOREIGN KEY (reversal_of) REFERENCES public.ledger(id);

--
-- Name: new_key_flashes new_key_flashes_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.new_key_flashes
    ADD CONSTRAINT new_key_flashes_key_id_fkey FOREIGN KEY (key_id) REFERENCES public.api_keys(id) ON DELETE CASCADE;

--
-- Name: new_key_flashes new_key_flashes_session_id_hash_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.new_key_flashes
    ADD CONSTRAINT new_key_flashes_session_id_hash_fkey FOREIGN KEY (session_id_hash) REFERENCES public.account_sessions(id_hash) ON DELETE CASCADE;

--
-- Name: sign_in_challenges sign_in_challenges_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_challenges
    ADD CONSTRAINT sign_in_challenges_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: undelivered_charges undelivered_charges_charge_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.undelivered_charges
    ADD CONSTRAINT undelivered_charges_charge_id_fkey FOREIGN KEY (charge_id) REFERENCES public.ledger(id);

--
-- Name: watch_deliveries watch_deliveries_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: watch_deliveries watch_deliveries_charge_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_charge_id_fkey FOREIGN KEY (charge_id) REFERENCES public.ledger(id);

--
-- Name: watch_deliveries watch_deliveries_digest_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_digest_id_fkey FOREIGN KEY (digest_id) REFERENCES public.watch_digests(id);

--
-- Name: watch_deliveries watch_deliveries_refund_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_refund_id_fkey FOREIGN KEY (refund_id) REFERENCES public.ledger(id);

--
-- Name: watch_deliveries watch_deliveries_watch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_deliveries
    ADD CONSTRAINT watch_deliveries_watch_id_fkey FOREIGN KEY (watch_id) REFERENCES public.watches(id);

--
-- Name: watch_digests watch_digests_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_digests
    ADD CONSTRAINT watch_digests_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: watch_events watch_events_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_events
    ADD CONSTRAINT watch_events_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.watch_deliveries(id);

--
-- Name: watch_events watch_events_watch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_events
    ADD CONSTRAINT watch_events_watch_id_fkey FOREIGN KEY (watch_id) REFERENCES public.watches(id);

--
-- Name: watch_hold_notices watch_hold_notices_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch_hold_notices
    ADD CONSTRAINT watch_hold_notices_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: watches watches_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watches
    ADD CONSTRAINT watches_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id);

--
-- Name: watches watches_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watches
    ADD CONSTRAINT watches_key_id_fkey FOREIGN KEY (key_id) REFERENCES public.api_keys(id);

--
-- PostgreSQL database dump complete
--
