import type { Sql } from './client.ts';

/** An account holder's sign-in, as signing in needs it. */
export interface Login {
  accountId: number;
  email: string;
  passwordHash: string;
  verified: boolean;
  disabled: boolean;
  /** A code is asked for after the password (R12.20). */
  twoFactor: boolean;
}

/**
 * A new account with its sign-in, in one transaction; null when the (normalized) address already
 * has one, and then nothing is created.
 */
export async function createAccountWithLogin(
  sql: Sql,
  login: { email: string; emailNormalized: string; passwordHash: string },
): Promise<number | null> {
  const taken = Symbol('taken');
  try {
    return (await sql.begin(async (tx) => {
      const [account] = await tx<{ id: number }[]>`INSERT INTO accounts (email) VALUES (${login.email}) RETURNING id`;
      const [created] = await tx<{ account_id: number }[]>`
        INSERT INTO account_logins (account_id, email, email_normalized, password_hash)
        VALUES (${account.id}, ${login.email}, ${login.emailNormalized}, ${login.passwordHash})
        ON CONFLICT (email_normalized) DO NOTHING
        RETURNING account_id`;
      if (!created) throw taken;
      return created.account_id;
    })) as number;
  } catch (error) {
    if (error === taken) return null;
    throw error;
  }
}

/** Gives an existing account (one the operator made, the demo account) a sign-in; false when the address is taken. */
export async function addLogin(
  sql: Sql,
  login: { accountId: number; email: string; emailNormalized: string; passwordHash: string; verified: boolean },
): Promise<boolean> {
  const rows = await sql`
    INSERT INTO account_logins (account_id, email, email_normalized, password_hash, email_verified_at)
    VALUES (${login.accountId}, ${login.email}, ${login.emailNormalized}, ${login.passwordHash},
            ${login.verified ? sql`now()` : null})
    ON CONFLICT DO NOTHING
    RETURNING account_id`;
  return rows.length === 1;
}

export async function findLogin(sql: Sql, emailNormalized: string): Promise<Login | null> {
  const [row] = await sql<
    {
      account_id: number;
      email: string;
      password_hash: string;
      verified: boolean;
      disabled: boolean;
      two_factor: boolean;
    }[]
  >`
    SELECT l.account_id, l.email, l.password_hash, l.email_verified_at IS NOT NULL AS verified,
           a.disabled_at IS NOT NULL AS disabled, l.totp_enabled_at IS NOT NULL AS two_factor
    FROM account_logins l JOIN accounts a ON a.id = l.account_id
    WHERE l.email_normalized = ${emailNormalized}`;
  return row
    ? {
        accountId: row.account_id,
        email: row.email,
        passwordHash: row.password_hash,
        verified: row.verified,
        disabled: row.disabled,
        twoFactor: row.two_factor,
      }
    : null;
}

/** The sign-in address of the account. */
export async function emailOf(sql: Sql, accountId: number): Promise<string> {
  const [{ email }] = await sql<{ email: string }[]>`SELECT email FROM account_logins WHERE account_id = ${accountId}`;
  return email;
}

/** Marks the address verified; true when this was what confirmed it (it was not before). */
export async function markEmailVerified(sql: Sql, accountId: number): Promise<boolean> {
  const rows = await sql`
    UPDATE account_logins SET email_verified_at = now()
    WHERE account_id = ${accountId} AND email_verified_at IS NULL RETURNING 1`;
  return rows.length === 1;
}

/**
 * A new password; a reset also proves the address, so it counts as verified. Every unused reset and
 * change-of-address link retires with the old password (R12.18): whoever knew it can no longer move
 * the account to their address.
 */
export async function setPassword(sql: Sql, accountId: number, passwordHash: string): Promise<void> {
  await sql`
    WITH retired AS (
      UPDATE account_tokens SET used_at = now()
      WHERE account_id = ${accountId} AND used_at IS NULL AND purpose IN ('reset_password', 'change_email')
    )
    UPDATE account_logins
    SET password_hash = ${passwordHash}, password_changed_at = now(),
        email_verified_at = coalesce(email_verified_at, now())
    WHERE account_id = ${accountId}`;
}

/** The sign-in of the account, as a signed-in change (password, address, deletion) needs it. */
export async function loginOf(sql: Sql, accountId: number): Promise<Login | null> {
  const [row] = await sql<{ email_normalized: string }[]>`
    SELECT email_normalized FROM account_logins WHERE account_id = ${accountId}`;
  return row ? findLogin(sql, row.email_normalized) : null;
}

/**
 * Moves the account's sign-in to a new, confirmed address (and its contact address with it);
 * false when another sign-in has the address by now, and then nothing changes.
 */
export async function changeEmail(
  sql: Sql,
  change: { accountId: number; email: string; emailNormalized: string },
): Promise<boolean> {
  const rows = await sql`
    WITH moved AS (
      UPDATE account_logins
      SET email = ${change.email}, email_normalized = ${change.emailNormalized},
          email_verified_at = now()
      WHERE account_id = ${change.accountId}
        AND NOT EXISTS (
          SELECT 1 FROM account_logins o
          WHERE o.email_normalized = ${change.emailNormalized} AND o.account_id <> ${change.accountId})
      RETURNING account_id
    )
    UPDATE accounts a SET email = ${change.email} FROM moved WHERE a.id = moved.account_id RETURNING a.id`.catch(
    (error: { code?: string }) => {
      // Taken at the same moment by a sign-up: the unique address wins, nothing changes.
      if (error.code === '23505') return [];
      throw error;
    },
  );
  return rows.length === 1;
}
