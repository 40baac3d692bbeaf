-- A key's standing without counting: the calls counted in its current window and the
-- milliseconds to its end; no row when its last window has ended (or it never had one).
CREATE OR REPLACE FUNCTION rate_limit_standing(p_key_hash bytea)
RETURNS TABLE (used integer, reset_ms integer)
LANGUAGE sql STABLE AS $$
  SELECT w.used, ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer
  FROM rate_limit_windows w JOIN api_keys k ON k.id = w.key_id
  WHERE k.key_hash = p_key_hash AND w.window_ends_at > clock_timestamp()
$$;
