-- Counts one attempt of the account page's attempt limits (docs/product-rules.md R12.8): its
-- count in the window and the milliseconds to the window's end.
CREATE OR REPLACE FUNCTION take_attempt(p_scope text, p_subject bytea, p_window_seconds integer)
RETURNS TABLE (used integer, reset_ms integer)
LANGUAGE sql AS $$
  INSERT INTO attempt_windows AS w (scope, subject, window_ends_at, used)
  VALUES (p_scope, p_subject, clock_timestamp() + make_interval(secs => p_window_seconds), 1)
  ON CONFLICT (scope, subject) DO UPDATE
  SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN 1 ELSE w.used + 1 END,
      window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                            ELSE w.window_ends_at END
  RETURNING w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
$$;
