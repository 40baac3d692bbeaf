import type postgres from 'postgres';
import type { Sql } from './client.ts';
import { isUniqueViolation, MalformedResult } from './errors.ts';
import { writeLedger } from './ledger-entries.ts';
import type { RateWindow } from './rate-limit.ts';

/** The caller behind a valid key: an active key of an enabled account. */
export interface Caller {
  keyId: number;
  accountId: number;
  keyPrefix: string;
}

/** `window`: the call's place in its key's rate-limit window, when it was counted. */
export type DebitResult =
  | { outcome: 'unauthorized' }
  /** Over the key's rate limit: refused before the daily cap and the balance, nothing charged. */
  | { outcome: 'limited'; caller: Caller; balance: number; window: RateWindow }
  | { outcome: 'insufficient'; caller: Caller; balance: number; window?: RateWindow }
  /** The key's daily cap refused the call before the balance was looked at: nothing charged. */
  | { outcome: 'capped'; caller: Caller; balance: number; dailyCap: number; spentToday: number; window?: RateWindow }
  /** `sandbox`: a test key's call, free (docs/product-rules.md §17): no charge, the balance untouched. */
  | {
      outcome: 'debited';
      caller: Caller;
      chargeId: number | null;
      balance: number;
      sandbox: boolean;
      window?: RateWindow;
    };

export interface DebitRequest {
  keyHash: Buffer;
  price: number;
  endpoint: string;
  /** The caller's X-Request-Id (or the one the service gave the request), kept in the ledger for support. */
  requestId: string;
  /** Made by the service for this call: how its charge is found when the debit's answer was lost. */
  callId: string;
  /** The service run making the charge (see `ServiceRun`). */
  runId: string;
  /** The Idempotency-Key whose claim this call holds: the charge is recorded on the claim in the same statement. */
  idempotencyKey?: string;
  /** The call's key is a test key (`alk_test_…`): the statement requires the key row to say so too. */
  sandbox?: boolean;
  /** Count the call in its key's rate-limit window, refusing it over `quota` (00015_shared-limits). */
  rateLimit?: { quota: number; windowSeconds: number };
  /** How the call came: `mcp` for a tool call of the MCP endpoint, recorded on its charge; `http` when absent. */
  channel?: Channel;
}

/** How a call came: an HTTP request, or a tool call of the MCP endpoint (docs/product-rules.md R21.7). */
export type Channel = 'http' | 'mcp';

/**
 * Checks the keys and debits every call, in order, each with its own ledger row, in ONE statement
 * (`debit_credits`, db/functions/debit_credits.sql): one round trip and one commit however many
 * calls there are, the key's daily cap and the low-balance alert in the same statement.
 * The accounts charged are locked for the statement, so two calls never both pass on a balance
 * that covers one, and every call learns the exact balance its own charge left, or, when refused,
 * the exact balance that did not cover it. A price of 0 only reads the balance.
 */
export async function debitCalls(sql: Sql, calls: readonly DebitRequest[]): Promise<DebitResult[]> {
  const rows = await sql<
    {
      nth: number;
      key_id: number;
      account_id: number;
      key_prefix: string;
      charge_id: number | null;
      balance: number;
      capped: boolean;
      daily_cap: number | null;
      spent_today: number | null;
      sandbox: boolean;
      rate_limited: boolean;
      rate_used: number | null;
      rate_reset_ms: number | null;
    }[]
  >`
    SELECT nth, key_id, account_id, key_prefix, charge_id, balance, capped, daily_cap, spent_today, sandbox,
           rate_limited, rate_used, rate_reset_ms
    FROM debit_credits(${sql.json(calls.map(debitCall))})
  `;
  // By index, not with every(): the entries seen were holes of a sparse array, which every() skips.
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row == null || !Number.isInteger(row.nth) || row.nth < 1 || row.nth > calls.length)
      throw new MalformedResult('debit_credits answered entries that are not its rows');
  }
  const results: DebitResult[] = calls.map(() => ({ outcome: 'unauthorized' }));
  for (const row of rows) {
    const caller = { keyId: row.key_id, accountId: row.account_id, keyPrefix: row.key_prefix };
    const index = row.nth - 1;
    const window = row.rate_used === null ? undefined : { used: row.rate_used, resetMs: row.rate_reset_ms! };
    results[index] = row.rate_limited
      ? { outcome: 'limited', caller, balance: row.balance, window: window! }
      : row.capped
        ? {
            outcome: 'capped',
            caller,
            balance: row.balance,
            dailyCap: row.daily_cap!,
            spentToday: row.spent_today!,
            window,
          }
        : row.charge_id !== null || calls[index].price === 0 || row.sandbox
          ? { outcome: 'debited', caller, chargeId: row.charge_id, balance: row.balance, sandbox: row.sandbox, window }
          : { outcome: 'insufficient', caller, balance: row.balance, window };
  }
  return results;
}

/** A call as `debit_credits` (db/functions/debit_credits.sql) takes it. */
function debitCall(call: DebitRequest) {
  const { keyHash, price, endpoint, requestId, callId, runId, idempotencyKey, sandbox, rateLimit, channel } = call;
  return {
    key_hash: keyHash.toString('hex'),
    price,
    endpoint,
    request_id: requestId,
    call_id: callId,
    run_id: runId,
    ...(idempotencyKey !== undefined && { idempotency_key: idempotencyKey }),
    ...(sandbox === true && { sandbox: true }),
    ...(channel === 'mcp' && { channel }),
    ...(rateLimit !== undefined && { rate_limit: { quota: rateLimit.quota, window_seconds: rateLimit.windowSeconds } }),
  };
}

/**
 * The caller behind a key (key_id, account_id, key_prefix, balance, and its rate-limit window as
 * rate_used and rate_reset_ms, null when it has none): a row only for an active key of an enabled account.
 */
export function callerOf(sql: Sql, keyHash: Buffer): postgres.PendingQuery<postgres.Row[]> {
  return sql`
    SELECT k.id AS key_id, k.account_id, k.display_prefix AS key_prefix, a.balance,
           w.used AS rate_used, w.reset_ms AS rate_reset_ms
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    LEFT JOIN LATERAL rate_limit_standing(k.key_hash) w ON true
    WHERE k.key_hash = ${keyHash}
      AND k.revoked_at IS NULL
      AND a.disabled_at IS NULL
  `;
}

/** A caller's rate-limit window as `callerOf` reads it. */
export const windowOf = (row: { rate_used: number | null; rate_reset_ms: number | null }): RateWindow | null =>
  row.rate_used === null ? null : { used: row.rate_used, resetMs: row.rate_reset_ms! };

/**
 * The caller, balance and rate-limit window behind a key, or null when the key is unknown, revoked
 * or its account disabled.
 */
export async function findCaller(
  sql: Sql,
  keyHash: Buffer,
): Promise<(Caller & { balance: number; window: RateWindow | null }) | null> {
  const [row] = await sql<
    {
      key_id: number;
      account_id: number;
      key_prefix: string;
      balance: number;
      rate_used: number | null;
      rate_reset_ms: number | null;
    }[]
  >`${callerOf(sql, keyHash)}`;
  if (!row) return null;
  return {
    keyId: row.key_id,
    accountId: row.account_id,
    keyPrefix: row.key_prefix,
    balance: row.balance,
    window: windowOf(row),
  };
}

/** A refund made: the credits given back, the balance after it, and the operation that was charged. */
export interface Refund {
  refunded: number;
  balance: number;
  endpoint: string;
}

/**
 * Gives back a charge in full, in one statement. `ledger.refund_of` is unique, so a charge can
 * never be refunded twice.
 */
export async function refund(sql: Sql, chargeId: number, requestId: string): Promise<Refund> {
  const row = await refundCharge(sql, sql`SELECT * FROM ledger WHERE id = ${chargeId} AND kind = 'charge'`, requestId);
  if (!row) throw new Error(`charge ${chargeId} does not exist`);
  return row;
}

/**
 * A refund the service owes but could not make when the call failed (see src/billing/pending-refunds.ts):
 * - `charge`: the debit committed and returned its ledger row; the refund did not get through.
 * - `uncertain`: the connection was lost while the debit ran, so whether it committed is unknown.
 *   Its charge, if any, is the one the debit recorded under the call's own id, which the service
 *   made: a caller's X-Request-Id, which it may repeat, never decides which charge is refunded.
 */
export type OwedRefund =
  | { kind: 'charge'; chargeId: number; requestId: string }
  | { kind: 'uncertain'; callId: string; requestId: string };

/**
 * Makes an owed refund, at most once: a charge that already has its refund (a retry after a
 * refund whose answer was lost) or no charge at all (an uncertain debit that never committed)
 * refunds nothing and returns null.
 */
export async function settleOwedRefund(sql: Sql, owed: OwedRefund): Promise<Refund | null> {
  const charge =
    owed.kind === 'charge'
      ? sql`SELECT l.* FROM ledger l WHERE l.id = ${owed.chargeId} AND l.kind = 'charge'
        AND l.request_id = ${owed.requestId}`
      : sql`SELECT l.* FROM undelivered_charges u JOIN ledger l ON l.id = u.charge_id WHERE u.call_id = ${owed.callId}
        FOR UPDATE OF u`;
  return refundOnce(sql, charge, owed.requestId);
}

/** Refunds the charge `charge` selects unless it already has its refund; null when there was nothing to refund. */
export async function refundOnce(
  sql: Sql,
  charge: postgres.Fragment,
  requestId: string | null,
): Promise<Refund | null> {
  const unrefunded = sql`
    SELECT * FROM (${charge}) c
    WHERE NOT EXISTS (SELECT 1 FROM ledger r WHERE r.refund_of = c.id)
    ORDER BY c.id DESC LIMIT 1`;
  try {
    return await refundCharge(sql, unrefunded, requestId);
  } catch (error) {
    // Another process made this very refund at the same moment (unique refund_of).
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * Credits the charge `charge` selects (a ledger row) back with its refund row, in one statement;
 * a refunded charge is no longer waiting for its delivery.
 */
async function refundCharge(sql: Sql, charge: postgres.Fragment, requestId: string | null): Promise<Refund | null> {
  const [row] = await sql<{ amount: number; balance_after: number; endpoint: string }[]>`
    WITH charge AS (
      SELECT id, account_id, key_id, endpoint, channel, -amount AS credits, created_at FROM (${charge}) selected
    ), credited AS (
      UPDATE accounts a
      SET balance = a.balance + charge.credits
      FROM charge
      WHERE a.id = charge.account_id
      RETURNING a.balance
    ), unspent AS (
      -- A refunded call does not count in its key's spend today, nor so against its daily cap.
      -- After the account's row lock (it reads credited), as a debit takes them, so the two never
      -- wait on each other in turn.
      UPDATE api_keys k
      SET cap_day_spent = greatest(k.cap_day_spent - charge.credits, 0)
      FROM charge, credited
      WHERE k.id = charge.key_id
        AND k.cap_day = (charge.created_at AT TIME ZONE 'UTC')::date
    ), settled AS (
      DELETE FROM undelivered_charges u USING charge WHERE u.charge_id = charge.id
    )
    ${writeLedger(
      sql,
      'refund',
      {
        account_id: sql`charge.account_id`,
        key_id: sql`charge.key_id`,
        amount: sql`charge.credits`,
        balance_after: sql`credited.balance`,
        endpoint: sql`charge.endpoint`,
        request_id: requestId,
        refund_of: sql`charge.id`,
        channel: sql`charge.channel`,
      },
      sql`charge, credited`,
    )}
    RETURNING amount, balance_after, endpoint
  `;
  return row ? { refunded: row.amount, balance: row.balance_after, endpoint: row.endpoint } : null;
}
