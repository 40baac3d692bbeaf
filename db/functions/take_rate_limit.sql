-- Counts one call of a key outside the debit (an Idempotency-Key replay, or a retry that takes
-- over a call already paid): its count in the window and the milliseconds to the window's end.
CREATE OR REPLACE FUNCTION take_rate_limit(p_key_id bigint, p_window_seconds integer)
RETURNS TABLE (used integer, reset_ms integer)
LANGUAGE sql AS $$
  INSERT INTO rate_limit_windows AS w (key_id, window_ends_at, used)
  VALUES (p_key_id, clock_timestamp() + make_interval(secs => p_window_seconds), 1)
  ON CONFLICT (key_id) DO UPDATE
  SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN 1 ELSE w.used + 1 END,
      window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                            ELSE w.window_ends_at END
  RETURNING w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
$$;
