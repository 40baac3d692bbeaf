import type { Sql } from './client.ts';

/** One operation's billed calls on one UTC day. */
export interface UsageRow {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The operationId the calls were charged for. */
  operation: string;
  /** Charged calls, refunded ones included. */
  calls: number;
  /** Of those, calls whose charge was refunded (the service failed them). */
  refundedCalls: number;
  /** Credits spent: the charges less their refunds. */
  credits: number;
  /** Of the calls, those made as tool calls of the MCP endpoint (docs/product-rules.md R21.7). */
  mcpCalls: number;
}

/**
 * The account's billed calls per UTC day and operation from `from` to `to` (both days included),
 * in day then operation order. A refund counts on the day of the charge it returns, so a day's
 * credits are what that day's calls finally cost. Free calls write no ledger row and are not here.
 */
export async function usageByDay(
  sql: Sql,
  accountId: number,
  from: string,
  to: string,
  /** One of the account's keys only; every key when absent. */
  keyId?: number,
): Promise<UsageRow[]> {
  const rows = await sql<
    { day: string; operation: string; calls: number; refunded_calls: number; credits: number; mcp_calls: number }[]
  >`
    SELECT to_char(charge.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           charge.endpoint AS operation,
           count(*)::bigint AS calls,
           count(refund.id)::bigint AS refunded_calls,
           (sum(-charge.amount) - coalesce(sum(refund.amount), 0))::bigint AS credits,
           count(*) FILTER (WHERE charge.channel = 'mcp')::bigint AS mcp_calls
    FROM ledger charge
    LEFT JOIN ledger refund ON refund.refund_of = charge.id
    WHERE charge.account_id = ${accountId}
      ${keyId === undefined ? sql`` : sql`AND charge.key_id = ${keyId}`}
      AND charge.kind = 'charge'
      AND charge.created_at >= (${from}::date)::timestamp AT TIME ZONE 'UTC'
      AND charge.created_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'
    GROUP BY 1, 2
    ORDER BY 1, 2`;
  return rows.map((row) => ({
    day: row.day,
    operation: row.operation,
    calls: row.calls,
    refundedCalls: row.refunded_calls,
    credits: row.credits,
    mcpCalls: row.mcp_calls,
  }));
}
