import type { components } from '../../generated/api-types.ts';
import type { Sql } from './client.ts';

/** A row of an account's ledger, as its holder (the page, getAccountLedger) and the operator (admin) see it. */
export interface LedgerRow {
  id: number;
  kind: components['schemas']['LedgerEntry']['kind'];
  /** Credits added (positive) or taken (negative). */
  amount: number;
  balanceAfter: number;
  /** The key of a charge, a refund or a grant; null for a purchase. */
  keyId: number | null;
  /** That key's display prefix. */
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
  /** How the call of a charge or refund came (http or mcp); null for other entries. */
  channel: 'http' | 'mcp' | null;
  /** A reversal's purchase: the payment refunded or disputed. */
  reversedPayment: string | null;
  /** A reversal's credits the balance could not cover (migrations/00009_credit-purchases). */
  owed: number | null;
  createdAt: Date;
}

/** Which entries of the account's ledger to read; every field absent: all of them. */
export interface LedgerFilter {
  /** One of the account's keys (its id). */
  keyId?: number;
  kind?: LedgerRow['kind'];
  /** From this UTC day (`YYYY-MM-DD`), included. */
  from?: string;
  /** To this UTC day, included. */
  to?: string;
}

/**
 * Up to `limit` rows of the account's ledger that `filter` selects, newest first: older than the
 * row `before` when it is given, else the ones just newer than the row `after` (the previous
 * page), else the newest (keyset pagination: a page stays the same while new rows arrive).
 * `more` says whether older rows exist, `newer` whether newer ones do (asked only with `askNewer`
 * or `after`: it costs a second query).
 */
export async function ledgerPage(
  sql: Sql,
  accountId: number,
  {
    before,
    after,
    limit,
    filter = {},
    askNewer = false,
  }: { before?: number; after?: number; limit: number; filter?: LedgerFilter; askNewer?: boolean },
): Promise<{ rows: LedgerRow[]; more: boolean; newer: boolean }> {
  const { keyId, kind, from, to } = filter;
  const selected = sql`
    l.account_id = ${accountId}
    ${keyId === undefined ? sql`` : sql`AND l.key_id = ${keyId}`}
    ${kind === undefined ? sql`` : sql`AND l.kind = ${kind}`}
    ${from === undefined ? sql`` : sql`AND l.created_at >= (${from}::date)::timestamp AT TIME ZONE 'UTC'`}
    ${to === undefined ? sql`` : sql`AND l.created_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`}`;
  const backwards = before === undefined && after !== undefined;
  const rows = await sql<
    {
      id: number;
      kind: LedgerRow['kind'];
      amount: number;
      balance_after: number;
      key_id: number | null;
      key_prefix: string | null;
      key_name: string | null;
      endpoint: string | null;
      request_id: string | null;
      payment_reference: string | null;
      refund_of: number | null;
      channel: 'http' | 'mcp';
      reversed_payment: string | null;
      owed: number | null;
      created_at: Date;
    }[]
  >`
    SELECT l.id, l.kind, l.amount, l.balance_after, l.key_id, k.display_prefix AS key_prefix, k.name AS key_name,
           l.endpoint, l.request_id, l.payment_reference, l.refund_of, l.channel,
           reversed.payment_reference AS reversed_payment, l.owed, l.created_at
    FROM ledger l
    LEFT JOIN api_keys k ON k.id = l.key_id
    LEFT JOIN ledger reversed ON reversed.id = l.reversal_of
    WHERE ${selected}
      AND ${backwards ? sql`l.id > ${after!}` : sql`l.id < ${before ?? Number.MAX_SAFE_INTEGER}`}
    ORDER BY ${backwards ? sql`l.id ASC` : sql`l.id DESC`}
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  const [newest, oldest] = [page[0], page.at(-1)];
  // The side the page was read towards is known from the extra row; the other side is asked.
  const beyond = async (sideId: number | undefined, newerSide: boolean) =>
    sideId !== undefined &&
    (
      await sql`
        SELECT 1 FROM ledger l WHERE ${selected}
          AND ${newerSide ? sql`l.id > ${sideId}` : sql`l.id < ${sideId}`} LIMIT 1`
    ).length === 1;
  const more = backwards ? await beyond(oldest?.id ?? after, false) : rows.length > limit;
  const newer = backwards
    ? rows.length > limit
    : askNewer && before !== undefined && (await beyond(newest?.id ?? before - 1, true));
  return {
    more,
    newer,
    rows: page.map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      balanceAfter: row.balance_after,
      keyId: row.key_id,
      keyPrefix: row.key_prefix,
      keyName: row.key_name,
      operation: row.endpoint,
      requestId: row.request_id,
      paymentReference: row.payment_reference,
      refundOf: row.refund_of,
      // A charge's or refund's only: how its call came (docs/product-rules.md R21.7).
      channel: row.kind === 'charge' || row.kind === 'refund' ? row.channel : null,
      reversedPayment: row.reversed_payment,
      owed: row.owed,
      createdAt: row.created_at,
    })),
  };
}
