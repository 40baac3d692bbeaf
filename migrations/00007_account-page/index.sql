-- The account page (docs/product-rules.md §12): customers sign up, sign in and manage their keys.

-- How an account holder signs in. A separate table, so accounts the operator created (with or
-- without a contact address, possibly the same address twice) stay as they are; an account gets a
-- sign-in when its holder signs up. The address is compared case-insensitively: `email` is stored
-- as the holder typed it, `email_normalized` (trimmed, lower-case) is what is unique.
CREATE TABLE account_logins (
  account_id        bigint PRIMARY KEY REFERENCES accounts (id),
  email             text COLLATE "C" NOT NULL,
  email_normalized  text COLLATE "C" NOT NULL UNIQUE CHECK (email_normalized = lower(btrim(email_normalized))),
  -- argon2id, in the PHC string format ($argon2id$v=19$m=…,t=…,p=…$salt$hash).
  password_hash     text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  email_verified_at timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);

-- Signed-in browsers. Only the SHA-256 of the session id (the cookie's value) is stored, so a
-- copy of this table signs nobody in. A session ends at `expires_at` (absolute), after an idle
-- period without use (`last_seen_at`), or when it is signed out (`ended_at`).
CREATE TABLE account_sessions (
  id_hash      bytea PRIMARY KEY,
  account_id   bigint NOT NULL REFERENCES accounts (id),
  -- The form token of this session (CSRF): every form it posts must carry it.
  csrf_token   text COLLATE "C" NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  ended_at     timestamptz
);
CREATE INDEX account_sessions_by_account ON account_sessions (account_id) WHERE ended_at IS NULL;

-- The links sent by email: verify an address, reset a password. Only the SHA-256 of the token
-- is stored; a token works once (`used_at`) and until `expires_at`.
CREATE TABLE account_tokens (
  token_hash bytea PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  purpose    text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX account_tokens_by_account ON account_tokens (account_id, purpose) WHERE used_at IS NULL;

-- A key's name (given by its holder on the page; keys made before have none) and when it was last
-- used, kept to the minute so a call does not write for it each time.
ALTER TABLE api_keys ADD COLUMN name text COLLATE "C" CHECK (name IS NULL OR length(name) BETWEEN 1 AND 100);
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
