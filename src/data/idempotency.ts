import { type Caller, callerOf, windowOf } from './billing.ts';
import type { Sql } from './client.ts';
import type { RateWindow } from './rate-limit.ts';

/** What a retry must repeat exactly for its Idempotency-Key to replay: the operation and the query. */
export interface IdempotentRequest {
  /** The caller's `Idempotency-Key` header. */
  key: string;
  operation: string;
  /** The query as the service understood it (normalized parameter values). */
  query: string;
}

/** A charged response kept for replay: status, content type and the body byte for byte. */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: Buffer;
}

/** `window`: the key's rate-limit window as the claim found it, before this call is counted. */
export type Admission =
  | { outcome: 'unauthorized' }
  /**
   * This request holds the key and runs the call; `chargeId` is set when it takes over an abandoned claim that had
   * paid.
   */
  | { outcome: 'claimed'; caller: Caller; balance: number; window: RateWindow | null; chargeId: number | null }
  /** The key stands for another operation or query. */
  | { outcome: 'reused'; caller: Caller; balance: number; window: RateWindow | null }
  /** Another request with the key is still running. */
  | { outcome: 'running'; caller: Caller; balance: number; window: RateWindow | null }
  /** The call ran and was charged (`chargeId`; null for a test key's free call): its response is replayed. */
  | {
      outcome: 'completed';
      caller: Caller;
      balance: number;
      window: RateWindow | null;
      response: StoredResponse;
      chargeId: number | null;
    };

export interface ClaimRequest extends IdempotentRequest {
  keyHash: Buffer;
  /** The service's own id of the call that claims the key. */
  callId: string;
  /** The service run the call runs in: once that run has ended, the claim can be taken over at once. */
  runId: string;
  /** The service's clock. */
  now: Date;
  /** Rows created at or before this are expired: ignored and replaced. */
  expiredAt: Date;
  /** 'running' claims taken at or before this were abandoned (their request will never finish). */
  abandonedAt: Date;
}

/**
 * Checks the API key and claims the Idempotency-Key for this request in ONE statement. The
 * primary key makes the claim atomic: of any number of concurrent first requests, exactly one
 * inserts; the others conflict and, under READ COMMITTED, see the winner's committed row. The
 * conflicting row is taken over only when it expired (a fresh start) or is a 'running' claim of
 * the same request that was abandoned, its run having ended or a minute having passed (it keeps the
 * claim's charge, so the call is not paid twice).
 * When the claim fails, a second statement reads the row as it is now: the first statement's
 * snapshot may predate the concurrent insert it conflicted with.
 */
export async function claimIdempotencyKey(sql: Sql, request: ClaimRequest): Promise<Admission> {
  const { keyHash, key, operation, query, callId, runId, now, expiredAt, abandonedAt } = request;
  const [row] = await sql<
    {
      key_id: number;
      account_id: number;
      key_prefix: string;
      balance: number;
      claimed: boolean;
      charge_id: number | null;
      rate_used: number | null;
      rate_reset_ms: number | null;
    }[]
  >`
    WITH caller AS (${callerOf(sql, keyHash)}), claim AS (
      INSERT INTO idempotency_keys AS held (account_id, idempotency_key, operation, query, state, request_id, run_id,
        created_at, claimed_at)
      SELECT caller.account_id, ${key}, ${operation}, ${query}, 'running', ${callId}, ${runId}, ${now}, ${now}
      FROM caller
      ON CONFLICT (account_id, idempotency_key) DO UPDATE
      SET operation = excluded.operation,
          query = excluded.query,
          state = 'running',
          request_id = excluded.request_id,
          run_id = excluded.run_id,
          claimed_at = excluded.claimed_at,
          created_at = CASE WHEN held.created_at <= ${expiredAt} THEN excluded.created_at ELSE held.created_at END,
          -- An abandoned claim's charge carries over unless it was refunded.
          charge_id = CASE
            WHEN held.created_at <= ${expiredAt} THEN NULL
            WHEN EXISTS (SELECT 1 FROM ledger WHERE refund_of = held.charge_id) THEN NULL
            ELSE held.charge_id
          END,
          response_status = NULL,
          response_content_type = NULL,
          response_body = NULL
      WHERE held.created_at <= ${expiredAt}
         OR (held.state = 'running'
             AND held.operation = excluded.operation AND held.query = excluded.query
             AND (held.claimed_at <= ${abandonedAt}
                  OR EXISTS (SELECT 1 FROM service_runs run WHERE run.id = held.run_id AND run.ended_at IS NOT NULL)))
      RETURNING held.charge_id
    )
    SELECT caller.key_id, caller.account_id, caller.key_prefix, caller.balance, caller.rate_used, caller.rate_reset_ms,
           EXISTS (SELECT 1 FROM claim) AS claimed, claim.charge_id
    FROM caller
    LEFT JOIN claim ON true
  `;
  if (!row) return { outcome: 'unauthorized' };
  const caller: Caller = { keyId: row.key_id, accountId: row.account_id, keyPrefix: row.key_prefix };
  const window = windowOf(row);
  if (row.claimed) return { outcome: 'claimed', caller, balance: row.balance, window, chargeId: row.charge_id };

  const [held] = await sql<
    {
      operation: string;
      query: string;
      state: string;
      status: number | null;
      content_type: string | null;
      body: Buffer | null;
      charge_id: number | null;
      balance: number;
    }[]
  >`
    SELECT held.operation, held.query, held.state, held.response_status AS status, held.charge_id,
           held.response_content_type AS content_type, held.response_body AS body, a.balance
    FROM idempotency_keys held
    JOIN accounts a ON a.id = held.account_id
    WHERE held.account_id = ${caller.accountId} AND held.idempotency_key = ${key} AND held.created_at > ${expiredAt}
  `;
  // Released or expired between the two statements: the caller tries to claim it again.
  if (!held) return { outcome: 'running', caller, balance: row.balance, window };
  if (held.operation !== operation || held.query !== query)
    return { outcome: 'reused', caller, balance: held.balance, window };
  if (held.state === 'running') return { outcome: 'running', caller, balance: held.balance, window };
  return {
    outcome: 'completed',
    caller,
    balance: held.balance,
    window,
    response: { status: held.status!, contentType: held.content_type, body: held.body! },
    chargeId: held.charge_id,
  };
}

/** The claim of one call: the key it holds, under the call's own id. */
export interface Claim {
  accountId: number;
  key: string;
  callId: string;
}

/**
 * Stores the charged response for replay, with its charge; a test key's call has none (it is free,
 * docs/product-rules.md §17). A claim that was taken over meanwhile is left to its new holder.
 */
export async function completeClaim(
  sql: Sql,
  claim: Claim,
  chargeId: number | null,
  response: StoredResponse,
): Promise<void> {
  await sql`
    UPDATE idempotency_keys
    SET state = 'completed', charge_id = ${chargeId}, sandbox = ${chargeId === null},
        response_status = ${response.status}, response_content_type = ${response.contentType},
          response_body = ${response.body}
    WHERE account_id = ${claim.accountId} AND idempotency_key = ${claim.key} AND request_id = ${claim.callId}
      AND state = 'running'
  `;
}

/** Gives the key up after a call that cost nothing (402, a refunded 5xx, a 429): a retry runs again. */
export async function releaseClaim(sql: Sql, claim: Claim): Promise<void> {
  await sql`
    DELETE FROM idempotency_keys
    WHERE account_id = ${claim.accountId} AND idempotency_key = ${claim.key} AND request_id = ${claim.callId}
      AND state = 'running'
  `;
}

/** Deletes keys older than 24 hours, a bounded batch at a time; expired rows are ignored even before. */
export async function purgeExpiredKeys(sql: Sql, expiredAt: Date, batch = 10_000): Promise<number> {
  const purged = await sql`
    DELETE FROM idempotency_keys
    WHERE (account_id, idempotency_key) IN (
      SELECT account_id, idempotency_key FROM idempotency_keys WHERE created_at <= ${expiredAt} LIMIT ${batch}
    )
  `;
  return purged.count;
}
