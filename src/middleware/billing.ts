import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import type { Sql } from '../db/client.ts';
import { CoalescedDebits } from '../billing/coalesced-debits.ts';
import { findCaller, refund } from '../db/billing.ts';
import { recordClaimCharge, type Claim } from '../db/idempotency.ts';
import { asApiError, insufficientCredits, rateLimited, unauthorized } from '../errors.ts';
import type { Metrics } from '../metrics.ts';
import { idempotencyKeyParameter } from '../params.ts';
import type { PendingRefunds } from '../pending-refunds.ts';
import { errorResponse } from './errors.ts';
import { canonicalQuery, idempotency } from './idempotency.ts';
import type { KeyRateLimit } from './rate-limit.ts';

export interface BillingOptions {
  /** The service's clock (Idempotency-Key lifetimes follow it). */
  now: () => Date;
  /** The per-key rate limit; null when it is turned off. */
  rateLimit: KeyRateLimit | null;
  metrics: Pick<Metrics, 'creditsCharged' | 'creditsRefunded'>;
  /** Refunds owed while the database is away. */
  refunds: PendingRefunds;
}

/** A debit may have committed when it failed with one of these: the statement was sent, the answer lost. */
const OUTCOME_UNKNOWN_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '08003', '08006', '08007']);

/** How far the service's clock and the database's may disagree when an uncertain debit's charge is looked for. */
const CLOCK_SLACK_MS = 2_000;


/**
 * Billing around every API operation:
 * - gives the handler `debit(query)`, which, once the handler has read its parameters, runs the
 *   remaining checks of product-decisions section 8 in order: the Idempotency-Key (400 when
 *   malformed, 422 when reused, a replay when the call already ran: see ./idempotency.ts), the
 *   per-key rate limit (429), then checks the key and takes the operation's `x-credit-cost`
 *   atomically, with its ledger row, before the handler runs its query (concurrent calls of one
 *   key are coalesced into one statement: see `CoalescedDebits`);
 * - refunds a charged call that failed on the server's side; when the database cannot take the
 *   refund at that moment, or the debit's own outcome is unknown, the refund is owed (PendingRefunds)
 *   and made once the database is back;
 * - settles "key before parameters" for calls rejected before the debit: a 400 from a key that
 *   turns out not to be valid becomes the 401 it should have been;
 * - puts `X-Credits-Charged` / `X-Credits-Remaining` and the RateLimit headers on every answer
 *   to a valid key;
 * - counts the credits charged and refunded in the metrics, where they move in the ledger.
 */
export const billing = (sql: Sql, { now, metrics, refunds, rateLimit }: BillingOptions) => {
  const idempotent = idempotency(sql, { now, rateLimit });
  const debits = new CoalescedDebits(sql);
  return createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId } = c.var.operation;
    const call: { chargeId: number | null; claim: Claim | null; refunded: boolean } = { chargeId: null, claim: null, refunded: false };

    c.set('debit', async (query = {}) => {
      // Only a billed call has anything to protect; a free one ignores the header.
      const idempotencyKey = creditCost > 0 ? idempotencyKeyParameter(c) : undefined;
      if (idempotencyKey !== undefined) {
        const admitted = await idempotent.admit(c, { key: idempotencyKey, operation: operationId, query: canonicalQuery(query) });
        call.claim = admitted.claim;
        if (admitted.chargeId !== null) {
          // Taken over from a request that paid and never finished: run on its charge.
          call.chargeId = admitted.chargeId;
          const credits = { credits_charged: creditCost, credits_remaining: admitted.balance };
          c.set('credits', credits);
          return { ...credits, key_prefix: admitted.caller.keyPrefix };
        }
      } else if (rateLimit) {
        const quota = await rateLimit.take(c.var.apiKeyHash);
        c.set('quota', quota);
        if (quota.limited) {
          // Key before rate limit: a limited request still proves its key, and 429 reports the balance.
          const caller = await findCaller(sql, c.var.apiKeyHash);
          if (caller === null) throw unauthorized();
          c.set('credits', { credits_charged: 0, credits_remaining: caller.balance });
          throw rateLimited(rateLimit.policy.requests, rateLimit.policy.windowSeconds);
        }
      }
      const request = { keyHash: c.var.apiKeyHash, price: creditCost, endpoint: operationId, requestId: c.var.requestId };
      const notBefore = new Date(Date.now() - CLOCK_SLACK_MS).toISOString();
      let result: Awaited<ReturnType<typeof debits.debit>>;
      try {
        result = await debits.debit(request);
      } catch (error) {
        // The caller is told nothing was charged; if the debit did commit, its refund makes that true.
        const code = (error as { code?: unknown }).code;
        if (creditCost > 0 && typeof code === 'string' && OUTCOME_UNKNOWN_CODES.has(code)) {
          await refunds.owe({ kind: 'uncertain', requestId: request.requestId, keyHash: request.keyHash.toString('hex'), endpoint: operationId, notBefore });
        }
        throw error;
      }
      if (result.outcome === 'unauthorized') {
        if (rateLimit) await rateLimit.giveBack(c.var.apiKeyHash);
        c.set('quota', undefined);
        throw unauthorized();
      }
      if (result.outcome === 'insufficient') {
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw insufficientCredits(creditCost, result.balance);
      }
      call.chargeId = result.chargeId;
      if (result.chargeId !== null) metrics.creditsCharged(operationId, creditCost);
      if (call.claim !== null && result.chargeId !== null) await recordClaimCharge(sql, call.claim, result.chargeId);
      const credits = { credits_charged: creditCost, credits_remaining: result.balance };
      c.set('credits', credits);
      return { ...credits, key_prefix: result.caller.keyPrefix };
    });

    await next();

    if (c.var.credits === undefined && c.res.status === 400) {
      const caller = await findCaller(sql, c.var.apiKeyHash);
      if (caller === null) {
        c.res = undefined;
        c.res = errorResponse(c, unauthorized());
        return;
      }
      c.set('credits', { credits_charged: 0, credits_remaining: caller.balance });
    }
    if (call.chargeId !== null && c.res.status >= 500) {
      try {
        const { refunded, balance } = await refund(sql, call.chargeId, c.var.requestId);
        metrics.creditsRefunded(operationId, refunded);
        c.set('creditsRefunded', refunded);
        c.set('credits', { credits_charged: 0, credits_remaining: balance });
      } catch {
        // The database is away (or the refund's answer was lost): the refund is owed, on disk, and
        // made once the database is back. The balance after it cannot be read now: no credit headers.
        await refunds.owe({ kind: 'charge', chargeId: call.chargeId, requestId: c.var.requestId });
        c.set('creditsRefunded', creditCost);
        c.set('refundOwed', true);
        c.set('credits', undefined);
      }
      call.refunded = true;
      c.res = undefined;
      c.res = errorResponse(c, asApiError(c.error));
    }
    if (call.claim !== null) {
      try {
        await idempotent.settle(c, call.claim, call.chargeId, call.refunded);
      } catch (error) {
        // Only a failed call can find the database away here; its answer stands. The claim stays
        // "running" and a retry takes it over once it is stale (see ./idempotency.ts).
        if (c.res.status < 500) throw error;
      }
    }
    const credits = c.var.credits;
    if (credits !== undefined) {
      c.header('X-Credits-Charged', String(credits.credits_charged));
      c.header('X-Credits-Remaining', String(credits.credits_remaining));
      if (rateLimit) {
        const quota = c.var.quota ?? (await rateLimit.standing(c.var.apiKeyHash));
        for (const [name, value] of Object.entries(rateLimit.headers(quota))) c.header(name, value);
      }
    }
  });
};
