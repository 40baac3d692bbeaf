import type postgres from 'postgres';
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

/**
 * Checks the keys and debits every call, in order, each with its own ledger row, in ONE statement
 * (`debit_credits`, migration 0003): one round trip and one commit however many calls there are.
 * The accounts charged are locked for the statement, so two calls never both pass on a balance
 * that covers one, and every call learns the exact balance its own charge left, or, when refused,
 * the exact balance that did not cover it. A price of 0 only reads the balance.
 */
export async function debitCalls(sql: Sql, calls: readonly DebitRequest[]): Promise<DebitResult[]> {
  const rows = await sql<
    { nth: number; key_id: number; account_id: number; key_prefix: string; charge_id: number | null; balance: number }[]
  >`
    SELECT nth, key_id, account_id, key_prefix, charge_id, balance
    FROM debit_credits(${sql.json(calls.map(({ keyHash, price, endpoint, requestId }) => ({ key_hash: keyHash.toString('hex'), price, endpoint, request_id: requestId })))})
  `;
  const results: DebitResult[] = calls.map(() => ({ outcome: 'unauthorized' }));
  for (const row of rows) {
    const caller = { keyId: row.key_id, accountId: row.account_id, keyPrefix: row.key_prefix };
    const index = row.nth - 1;
    results[index] =
      row.charge_id !== null || calls[index].price === 0
        ? { outcome: 'debited', caller, chargeId: row.charge_id, balance: row.balance }
        : { outcome: 'insufficient', caller, balance: row.balance };
  }
  return results;
}

/** One call's debit on its own; see `debitCalls`. */
export async function debit(sql: Sql, request: DebitRequest): Promise<DebitResult> {
  const [result] = await debitCalls(sql, [request]);
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
  const row = await refundCharge(sql, sql`SELECT * FROM ledger WHERE id = ${chargeId} AND kind = 'charge'`, requestId);
  if (!row) throw new Error(`charge ${chargeId} does not exist`);
  return row;
}

/**
 * A refund the service owes but could not make when the call failed (see src/pending-refunds.ts):
 * - `charge`: the debit committed and returned its ledger row; the refund did not get through.
 * - `uncertain`: the connection was lost while the debit ran, so whether it committed is unknown.
 *   Its charge is found by what the service knows of the call: the request id, the key and the
 *   operation, no earlier than just before the call.
 */
export type OwedRefund =
  | { kind: 'charge'; chargeId: number; requestId: string }
  | { kind: 'uncertain'; requestId: string; keyHash: string; endpoint: string; notBefore: string };

/**
 * Makes an owed refund, at most once: a charge that already has its refund (a retry after a
 * refund whose answer was lost) or no charge at all (an uncertain debit that never committed)
 * refunds nothing and returns null.
 */
export async function settleOwedRefund(sql: Sql, owed: OwedRefund): Promise<{ refunded: number; balance: number } | null> {
  const charge =
    owed.kind === 'charge'
      ? sql`SELECT l.* FROM ledger l WHERE l.id = ${owed.chargeId} AND l.kind = 'charge' AND l.request_id = ${owed.requestId}`
      : sql`
          SELECT l.* FROM ledger l JOIN api_keys k ON k.account_id = l.account_id AND k.id = l.key_id
          WHERE k.key_hash = ${Buffer.from(owed.keyHash, 'hex')} AND l.kind = 'charge' AND l.request_id = ${owed.requestId}
            AND l.endpoint = ${owed.endpoint} AND l.created_at >= ${owed.notBefore}::timestamptz`;
  const unrefunded = sql`
    SELECT * FROM (${charge}) c
    WHERE NOT EXISTS (SELECT 1 FROM ledger r WHERE r.refund_of = c.id)
    ORDER BY c.id DESC LIMIT 1`;
  try {
    return await refundCharge(sql, unrefunded, owed.requestId);
  } catch (error) {
    // Another process made this very refund at the same moment (unique refund_of).
    if ((error as { code?: string }).code === '23505') return null;
    throw error;
  }
}

/** Credits the charge `charge` selects (a ledger row) back with its refund row, in one statement. */
async function refundCharge(sql: Sql, charge: postgres.Fragment, requestId: string): Promise<{ refunded: number; balance: number } | null> {
  const [row] = await sql<{ amount: number; balance_after: number }[]>`
    WITH charge AS (
      SELECT id, account_id, key_id, endpoint, -amount AS credits FROM (${charge}) selected
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
  return row ? { refunded: row.amount, balance: row.balance_after } : null;
}
