import type { Sql } from './client.ts';

/** The caller behind a valid key: an active key of an enabled account. */
export interface Caller {
  keyId: number;
  accountId: number;
  keyPrefix: string;
}

export type DebitResult =
  | { outcome: 'unauthorized' }
  | { outcome: 'insufficient'; caller: Caller; balance: number }
  | { outcome: 'debited'; caller: Caller; chargeId: number | null; balance: number };

export interface DebitRequest {
  keyHash: Buffer;
  price: number;
  endpoint: string;
  requestId: string;
}

/** One call to charge: a debit request without its key. */
export type Call = Omit<DebitRequest, 'keyHash'>;

/**
 * Checks the key and debits every call, in order, each with its own ledger row, in ONE statement
 * (`debit_credits`, migration 0003): one round trip and one commit however many calls there are.
 * The account's row is locked for the statement, so two calls never both pass on a balance that
 * covers one, and every call learns the exact balance its own charge left, or, when refused, the
 * exact balance that did not cover it. A price of 0 only reads the balance.
 */
export async function debitCalls(sql: Sql, keyHash: Buffer, calls: readonly Call[]): Promise<DebitResult[]> {
  const rows = await sql<
    { nth: number; key_id: number; account_id: number; key_prefix: string; charge_id: number | null; balance: number }[]
  >`
    SELECT nth, key_id, account_id, key_prefix, charge_id, balance
    FROM debit_credits(
      ${keyHash},
      ${calls.map((call) => call.price)}::bigint[],
      ${calls.map((call) => call.endpoint)}::text[],
      ${calls.map((call) => call.requestId)}::text[]
    )
    ORDER BY nth
  `;
  if (rows.length === 0) return calls.map(() => ({ outcome: 'unauthorized' }));
  return rows.map((row, index) => {
    const caller = { keyId: row.key_id, accountId: row.account_id, keyPrefix: row.key_prefix };
    if (row.charge_id !== null || calls[index].price === 0) {
      return { outcome: 'debited', caller, chargeId: row.charge_id, balance: row.balance };
    }
    return { outcome: 'insufficient', caller, balance: row.balance };
  });
}

/** One call's debit on its own; see `debitCalls`. */
export async function debit(sql: Sql, { keyHash, ...call }: DebitRequest): Promise<DebitResult> {
  const [result] = await debitCalls(sql, keyHash, [call]);
  return result;
}

/** The caller and balance behind a key, or null when the key is unknown, revoked or its account disabled. */
export async function findCaller(sql: Sql, keyHash: Buffer): Promise<(Caller & { balance: number }) | null> {
  const [row] = await sql<{ key_id: number; account_id: number; key_prefix: string; balance: number }[]>`
    SELECT k.id AS key_id, k.account_id, k.display_prefix AS key_prefix, a.balance
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = ${keyHash}
      AND k.revoked_at IS NULL
      AND a.disabled_at IS NULL
  `;
  return row ? { keyId: row.key_id, accountId: row.account_id, keyPrefix: row.key_prefix, balance: row.balance } : null;
}

/**
 * Gives back a charge in full, in one statement. `ledger.refund_of` is unique, so a charge can
 * never be refunded twice.
 */
export async function refund(sql: Sql, chargeId: number, requestId: string): Promise<{ refunded: number; balance: number }> {
  const [row] = await sql<{ amount: number; balance_after: number }[]>`
    WITH charge AS (
      SELECT id, account_id, key_id, endpoint, -amount AS credits
      FROM ledger
      WHERE id = ${chargeId} AND kind = 'charge'
    ), credited AS (
      UPDATE accounts a
      SET balance = a.balance + charge.credits
      FROM charge
      WHERE a.id = charge.account_id
      RETURNING a.balance
    )
    INSERT INTO ledger (account_id, key_id, kind, amount, balance_after, endpoint, request_id, refund_of)
    SELECT charge.account_id, charge.key_id, 'refund', charge.credits, credited.balance, charge.endpoint, ${requestId}, charge.id
    FROM charge, credited
    RETURNING amount, balance_after
  `;
  if (!row) throw new Error(`charge ${chargeId} does not exist`);
  return { refunded: row.amount, balance: row.balance_after };
}
