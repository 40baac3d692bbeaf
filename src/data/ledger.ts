import type { components } from '../../generated/api-types.ts';
import type { Sql } from './client.ts';

/** A row of an account's ledger, as its holder sees it. */
export interface LedgerRow {
  id: number;
  kind: components['schemas']['LedgerEntry']['kind'];
  /** Credits added (positive) or taken (negative). */
  amount: number;
  balanceAfter: number;
  /** The display prefix of the key of a charge, a refund or a grant; null for a purchase. */
  keyPrefix: string | null;
  /** The name its holder gave that key, if any. */
  keyName: string | null;
  /** The operationId of a charge or refund. */
  operation: string | null;
  /** The X-Request-Id of the call charged or refunded. */
  requestId: string | null;
  paymentReference: string | null;
  /** The ledger row a refund returns. */
  refundOf: number | null;
  createdAt: Date;
}

/**
 * Up to `limit` rows of the account's ledger, newest first, older than the row `before` when it is
 * given (keyset pagination: a page stays the same while new rows arrive). `more` says whether
 * older rows exist.
 */
export async function ledgerPage(
  sql: Sql,
  accountId: number,
  { before, limit }: { before?: number; limit: number },
): Promise<{ rows: LedgerRow[]; more: boolean }> {
  const rows = await sql<
    {
      id: number;
      kind: LedgerRow['kind'];
      amount: number;
      balance_after: number;
      key_prefix: string | null;
      key_name: string | null;
      endpoint: string | null;
      request_id: string | null;
      payment_reference: string | null;
      refund_of: number | null;
      created_at: Date;
    }[]
  >`
    SELECT l.id, l.kind, l.amount, l.balance_after, k.display_prefix AS key_prefix, k.name AS key_name, l.endpoint,
           l.request_id, l.payment_reference, l.refund_of, l.created_at
    FROM ledger l
    LEFT JOIN api_keys k ON k.id = l.key_id
    WHERE l.account_id = ${accountId}
      AND l.id < ${before ?? Number.MAX_SAFE_INTEGER}
    ORDER BY l.id DESC
    LIMIT ${limit + 1}`;
  return {
    more: rows.length > limit,
    rows: rows.slice(0, limit).map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      balanceAfter: row.balance_after,
      keyPrefix: row.key_prefix,
      keyName: row.key_name,
      operation: row.endpoint,
      requestId: row.request_id,
      paymentReference: row.payment_reference,
      refundOf: row.refund_of,
      createdAt: row.created_at,
    })),
  };
}
