-- A new key's plaintext on its way from the creation's post to the page it redirects to
-- (docs/product-rules.md R12.30): post/redirect/get, so reloading the page never makes another key.
-- One per session, read once (the read deletes it), for 5 minutes at most, and sealed with a key
-- derived from the session cookie's value, which the database never holds: a reader of this table
-- learns no key. Gone with its session's row, and replaced by the session's next new key.
CREATE TABLE new_key_flashes (
  session_id_hash bytea PRIMARY KEY REFERENCES account_sessions (id_hash) ON DELETE CASCADE,
  key_id          bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  -- AES-256-GCM: the 12-byte nonce, the 16-byte tag, then the sealed plaintext.
  sealed          bytea NOT NULL,
  -- The credits the key's creation granted (the first key's), to say so on the page.
  granted         bigint NOT NULL,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX new_key_flashes_by_expiry ON new_key_flashes (expires_at);
