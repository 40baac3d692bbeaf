import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { dailyCapReached, insufficientCredits, rateLimited, unauthorized } from '../contract/errors.ts';
import type { Sql } from '../data/client.ts';
import { isOutcomeUnknown } from '../data/errors.ts';
import type { Claim } from '../data/idempotency.ts';
import type { AppEnv } from '../http/app-env.ts';
import { answerDelivered } from '../http/delivery.ts';
import { asApiError, errorResponse } from '../http/error-response.ts';
import type { Billing } from './billing.ts';
import { canonicalQuery, idempotency, Replay } from './idempotency.ts';
import type { KeyRateLimit } from './rate-limit.ts';

export interface BillingMiddlewareOptions {
  /** The service's clock (Idempotency-Key lifetimes follow it). */
  now: () => Date;
  /** The per-key rate limit; null when it is turned off. */
  rateLimit: KeyRateLimit | null;
}

/**
 * Billing around every API operation, the HTTP side of the `Billing` service:
 * - gives the handler `debit()`, which runs the checks that follow the parameters, in the order
 *   of docs/product-rules.md §5: the Idempotency-Key (422 when reused, a replay when the call
 *   already ran: ./idempotency.ts), the per-key rate limit (429), then the key and the operation's
 *   `x-credit-cost`, taken atomically with its ledger row before the handler runs its query;
 * - refunds a charged call that failed on the server's side (owed when the database cannot take
 *   it now, or when the debit's own outcome is unknown);
 * - settles the call's Idempotency-Key claim;
 * - watches a charged answer leave the process: delivered, it is marked so; not written (the
 *   connection closed first), it is refunded unless an Idempotency-Key holds it for a retry.
 * The credit headers (http/credit-headers.ts) and "key before parameters"
 * (http/key-before-parameters.ts) are the edge's.
 */
export const billing = (sql: Sql, service: Billing, { now, rateLimit }: BillingMiddlewareOptions) => {
  const idempotent = idempotency(sql, { now, rateLimit, runId: () => service.runId });
  return createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId, mediaTypes } = c.get('operation');
    const call: {
      callId: string;
      chargeId: number | null;
      claim: Claim | null;
      refunded: boolean;
      replayOf: number | null;
    } = {
      callId: randomUUID(),
      chargeId: null,
      claim: null,
      refunded: false,
      replayOf: null,
    };

    c.set('debit', async () => {
      const { query, idempotencyKey } = c.get('parameters');
      if (idempotencyKey !== undefined) {
        let admitted: Awaited<ReturnType<typeof idempotent.admit>>;
        try {
          admitted = await idempotent.admit(c, {
            key: idempotencyKey,
            operation: operationId,
            query: canonicalQuery(query, c.get('mediaType') === mediaTypes[0] ? undefined : c.get('mediaType')),
            callId: call.callId,
          });
        } catch (error) {
          if (error instanceof Replay) call.replayOf = error.chargeId;
          throw error;
        }
        call.claim = admitted.claim;
        if (admitted.chargeId !== null) {
          // Taken over from a request that paid and never finished: run on its charge.
          call.chargeId = admitted.chargeId;
          const credits = { credits_charged: creditCost, credits_remaining: admitted.balance };
          c.set('credits', credits);
          c.set('keyPrefix', admitted.caller.keyPrefix);
          c.set('accountId', admitted.caller.accountId);
          return credits;
        }
      }
      let result: Awaited<ReturnType<Billing['debit']>>;
      try {
        result = await service.debit({
          keyHash: c.get('apiKeyHash'),
          price: creditCost,
          endpoint: operationId,
          requestId: c.get('requestId'),
          callId: call.callId,
          ...(call.claim !== null && { idempotencyKey: call.claim.key }),
          ...(c.get('sandbox') && { sandbox: true }),
          // Counted by the debit statement itself, after the key and before the cap and the balance.
          ...(rateLimit && { rateLimit: rateLimit.debitLimit }),
        });
      } catch (error) {
        // The caller is told nothing was charged; if the debit did commit, its refund makes that true.
        if (creditCost > 0 && isOutcomeUnknown(error)) await service.oweUncertain(call.callId, c.get('requestId'));
        throw error;
      }
      if (result.outcome === 'unauthorized') throw unauthorized();
      if (rateLimit && result.window) c.set('quota', rateLimit.quota(result.window));
      if (result.outcome === 'limited') {
        // Key before rate limit: a limited request still proves its key, and 429 reports the balance.
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw rateLimited(rateLimit!.policy.requests, rateLimit!.policy.windowSeconds);
      }
      if (result.outcome === 'capped') {
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw dailyCapReached(creditCost, result.dailyCap, result.spentToday, now());
      }
      if (result.outcome === 'insufficient') {
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw insufficientCredits(creditCost, result.balance);
      }
      call.chargeId = result.chargeId;
      const credits = { credits_charged: result.sandbox ? 0 : creditCost, credits_remaining: result.balance };
      c.set('credits', credits);
      c.set('keyPrefix', result.caller.keyPrefix);
      c.set('accountId', result.caller.accountId);
      return credits;
    });

    await next();

    if (call.chargeId !== null && c.res.status >= 500) {
      const made = await service.refund(call.chargeId, c.get('requestId'));
      c.set('creditsRefunded', made?.refunded ?? creditCost);
      if (made !== null) {
        c.set('credits', { credits_charged: 0, credits_remaining: made.balance });
      } else {
        // Owed: the balance after it cannot be read now, so no credit headers.
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
        // The answer stands, paid or not: the claim stays "running", and a retry takes it over
        // once its run has ended or it is stale, on this call's charge (./idempotency.ts).
        c.set('billingFault', error);
      }
    }
    const answered = call.refunded ? call.replayOf : (call.chargeId ?? call.replayOf);
    if (answered !== null) {
      const requestId = c.get('requestId');
      const heldByKey = call.claim !== null || call.replayOf !== null;
      void answerDelivered(c).then((sent) =>
        sent ? service.delivered(answered) : service.undelivered(answered, requestId, { heldByKey }),
      );
    }
  });
};
