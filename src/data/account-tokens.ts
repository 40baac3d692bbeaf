import type { Sql } from './client.ts';

export type TokenPurpose = 'verify_email' | 'reset_password' | 'change_email';

/**
 * Stores a link's token (its SHA-256) for `purpose`, usable once until `expiresAt`. A new reset
 * or change-of-address link retires the account's older unused ones (R12.6, R12.18): only the
 * newest in the mailbox works. Older confirmation links keep working: confirming an address twice
 * does no harm.
 */
export async function insertToken(
  sql: Sql,
  token: { tokenHash: Buffer; accountId: number; purpose: TokenPurpose; expiresAt: Date; newEmail?: string },
): Promise<void> {
  await sql`
    WITH retired AS (
      UPDATE account_tokens SET used_at = now()
      WHERE account_id = ${token.accountId} AND purpose = ${token.purpose} AND used_at IS NULL
        AND purpose IN ('reset_password', 'change_email')
    )
    INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at, new_email)
    VALUES (${token.tokenHash}, ${token.accountId}, ${token.purpose}, ${token.expiresAt}, ${token.newEmail ?? null})`;
}

/** Uses a change-of-address token: the account and the address it confirms, once; null when unusable. */
export async function useEmailChangeToken(
  sql: Sql,
  tokenHash: Buffer,
): Promise<{ accountId: number; newEmail: string } | null> {
  const [row] = await sql<{ account_id: number; new_email: string }[]>`
    UPDATE account_tokens SET used_at = now()
    WHERE token_hash = ${tokenHash} AND purpose = 'change_email' AND used_at IS NULL AND expires_at > now()
    RETURNING account_id, new_email`;
  return row ? { accountId: row.account_id, newEmail: row.new_email } : null;
}

/** The account of a token that can still be used, without using it (the page that asks for the click). */
export async function usableToken(sql: Sql, tokenHash: Buffer, purpose: TokenPurpose): Promise<number | null> {
  const [row] = await sql<{ account_id: number }[]>`
    SELECT account_id FROM account_tokens
    WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()`;
  return row?.account_id ?? null;
}

/**
 * Uses the token: the account it was made for, once; null when it is unknown, used or expired.
 * Using one also retires every other unused token of the account for the same purpose, so an
 * older link in the mailbox stops working too.
 */
export async function useToken(sql: Sql, tokenHash: Buffer, purpose: TokenPurpose): Promise<number | null> {
  const [row] = await sql<{ account_id: number }[]>`
    WITH used AS (
      UPDATE account_tokens SET used_at = now()
      WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
      RETURNING account_id
    ), retired AS (
      UPDATE account_tokens t SET used_at = now()
      FROM used
      WHERE t.account_id = used.account_id AND t.purpose = ${purpose} AND t.used_at IS NULL
        AND t.token_hash <> ${tokenHash}
    )
    SELECT account_id FROM used`;
  return row?.account_id ?? null;
}
