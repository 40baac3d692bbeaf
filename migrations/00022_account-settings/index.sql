-- Account settings (docs/product-rules.md R12.17 and on).

-- A change of the sign-in address is confirmed by a link sent to the new address: the link's
-- token carries the address it confirms, and the change applies only when it is used.
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check;
ALTER TABLE account_tokens ADD COLUMN new_email text COLLATE "C";
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check
  CHECK (purpose IN ('verify_email', 'reset_password', 'change_email'));
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_new_email_check
  CHECK ((purpose = 'change_email') = (new_email IS NOT NULL));

-- A deleted account (R12.19): its personal data is erased and it can no longer sign in or call;
-- the row stays, anonymised, because its ledger (kept as accounting requires) refers to it.
ALTER TABLE accounts ADD COLUMN deleted_at timestamptz;

-- Two-factor sign-in with a time-based code (TOTP, RFC 6238), optional (R12.20). The secret is
-- set when setting up starts and counts only once a code confirmed it (`totp_enabled_at`); the
-- time step of the last code accepted keeps every code to one use.
ALTER TABLE account_logins
  ADD COLUMN totp_secret     text COLLATE "C",
  ADD COLUMN totp_enabled_at timestamptz,
  ADD COLUMN totp_last_step  bigint,
  ADD CHECK (totp_enabled_at IS NULL OR totp_secret IS NOT NULL);

-- The ten single-use recovery codes of an account with two-factor sign-in: their SHA-256 only
-- (80 random bits each), shown once when made.
CREATE TABLE account_recovery_codes (
  account_id bigint NOT NULL REFERENCES accounts (id),
  code_hash  bytea NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

-- A sign-in between its two steps: the password was right, the code is still to come. Kept
-- under the SHA-256 of a cookie's value, for five minutes; no session exists until the code.
CREATE TABLE sign_in_challenges (
  id_hash    bytea PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  next       text COLLATE "C" NOT NULL,
  expires_at timestamptz NOT NULL
);
