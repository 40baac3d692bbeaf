import type postgres from 'postgres';
import { generateApiKey } from '../contract/api-key.ts';
import type { Sql } from './client.ts';
import { writeLedger } from './ledger-entries.ts';

/** The longest payment reference a purchase may carry. */
export const MAX_PAYMENT_REFERENCE_LENGTH = 1024;

/** Credits that come with an account's first key ever, once per account. */
export const FIRST_KEY_GRANT = 200;

export interface Account {
  id: number;
  email: string | null;
  balance: number;
  disabled: boolean;
}

export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountError';
  }
}

export async function createAccount(sql: Sql, { email }: { email?: string } = {}): Promise<Account> {
  const [row] = await sql<{ id: number; email: string | null; balance: number }[]>`
    INSERT INTO accounts (email) VALUES (${email ?? null}) RETURNING id, email, balance`;
  return { ...row, disabled: false };
}

export async function findAccount(sql: Sql, accountId: number): Promise<Account | null> {
  const [row] = await sql<{ id: number; email: string | null; balance: number; disabled: boolean }[]>`
    SELECT id, email, balance, disabled_at IS NOT NULL AS disabled FROM accounts WHERE id = ${accountId}`;
  return row ?? null;
}

export interface CreatedApiKey {
  id: number;
  /** The plaintext key: shown once, never stored. */
  key: string;
  displayPrefix: string;
  /** Credits granted with this key (the first key of the account only). */
  granted: number;
  balance: number;
}

/**
 * Creates a key, with the name its holder gave it (the account page), if any; the account's first
 * key ever also grants FIRST_KEY_GRANT credits, in the same transaction.
 */
export async function createApiKey(
  sql: Sql,
  accountId: number,
  { name, test = false }: { name?: string; test?: boolean } = {},
): Promise<CreatedApiKey> {
  const { key, hash, displayPrefix } = generateApiKey({ test });
  return sql.begin(async (tx) => {
    const [account] = await tx<{ id: number }[]>`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    if (!account) throw new AccountError(`account ${accountId} does not exist`);
    const [created] = await tx<{ id: number }[]>`
      INSERT INTO api_keys (account_id, key_hash, display_prefix, name, sandbox)
      VALUES (${accountId}, ${hash}, ${displayPrefix}, ${name ?? null}, ${test})
      RETURNING id`;
    const [grant] = await tx<{ balance: number }[]>`
      WITH granted AS (
        UPDATE accounts SET balance = balance + ${FIRST_KEY_GRANT}, first_key_granted = true,
          ${rearmed(tx, FIRST_KEY_GRANT)}
        -- The grant comes with the first live key; a test key spends nothing (docs/product-rules.md §17).
        WHERE id = ${accountId} AND NOT first_key_granted AND NOT ${test}
        RETURNING id, balance
      )
      ${writeLedger(
        tx,
        'grant',
        { account_id: tx`id`, key_id: created.id, amount: FIRST_KEY_GRANT, balance_after: tx`balance` },
        tx`granted`,
      )}
      RETURNING balance_after AS balance`;
    const [{ balance }] = grant
      ? [grant]
      : await tx<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
    return { id: created.id, key, displayPrefix, granted: grant ? FIRST_KEY_GRANT : 0, balance };
  }) as Promise<CreatedApiKey>;
}

export async function setAccountDisabled(sql: Sql, accountId: number, disabled: boolean): Promise<boolean> {
  const rows = await sql`
    UPDATE accounts SET disabled_at = CASE WHEN ${disabled} THEN coalesce(disabled_at, now()) END
    WHERE id = ${accountId} RETURNING id`;
  return rows.length === 1;
}

export interface CreditsAdded {
  /** False when this payment reference was already credited to the account: nothing was added. */
  added: boolean;
  balance: number;
}

/**
 * Adds purchased credits under a payment reference. The reference is unique across all accounts:
 * the same one again for the same account adds nothing; for another account it is an error.
 */
/**
 * The SET clause that arms the low-balance alert again when credits bring the balance back to its
 * threshold (migrations/00008_spending-controls): the next fall below it alerts once more.
 */
function rearmed(sql: Sql | postgres.TransactionSql, credits: number) {
  return sql`low_balance_armed = low_balance_armed OR balance + ${credits} >= coalesce(low_balance_threshold, 0)`;
}

export async function addCredits(
  sql: Sql,
  accountId: number,
  amount: number,
  paymentReference: string,
): Promise<CreditsAdded> {
  if (!Number.isInteger(amount) || amount <= 0) throw new AccountError('amount must be a positive integer');
  if (paymentReference.trim() === '') throw new AccountError('a payment reference is required');
  // The ledger shows it to the account holder, and the contract bounds it (LedgerEntry.payment_reference).
  if (paymentReference.length > MAX_PAYMENT_REFERENCE_LENGTH)
    throw new AccountError(`a payment reference is at most ${MAX_PAYMENT_REFERENCE_LENGTH} characters`);
  return sql.begin((tx) => creditAccount(tx, accountId, amount, paymentReference)) as Promise<CreditsAdded>;
}

/**
 * addCredits inside the caller's transaction (a Stripe payment credits with its purchase row
 * locked): the account's row is locked, and a payment reference credits once.
 */
export async function creditAccount(
  tx: postgres.TransactionSql,
  accountId: number,
  amount: number,
  paymentReference: string,
): Promise<CreditsAdded> {
  const [account] = await tx<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId} FOR UPDATE`;
  if (!account) throw new AccountError(`account ${accountId} does not exist`);
  const [seen] = await tx<
    { account_id: number }[]
  >`SELECT account_id FROM ledger WHERE payment_reference = ${paymentReference}`;
  if (seen && seen.account_id !== accountId) {
    throw new AccountError(
      `payment reference ${JSON.stringify(paymentReference)} was already used for another account`,
    );
  }
  if (seen) return { added: false, balance: account.balance };
  const [row] = await tx<{ balance: number }[]>`
    WITH credited AS (
      UPDATE accounts SET balance = balance + ${amount}, ${rearmed(tx, amount)}
      WHERE id = ${accountId} RETURNING id, balance
    )
    ${writeLedger(
      tx,
      'purchase',
      { account_id: tx`id`, amount, balance_after: tx`balance`, payment_reference: paymentReference },
      tx`credited`,
    )}
    RETURNING balance_after AS balance`;
  return { added: true, balance: row.balance };
}
