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
