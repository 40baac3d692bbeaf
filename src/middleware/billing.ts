import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import type { Sql } from '../db/client.ts';
import { debit, findCaller, refund } from '../db/billing.ts';
import { asApiError, insufficientCredits, unauthorized } from '../errors.ts';
import type { Metrics } from '../metrics.ts';
import { errorResponse } from './errors.ts';

/**
 * Billing around every API operation:
 * - gives the handler `debit()`, which checks the key and takes the operation's `x-credit-cost`
 *   atomically, with its ledger row, before the handler runs its query;
 * - refunds a charged call that failed on the server's side;
 * - settles "key before parameters" for calls rejected before the debit: a 400 from a key that
 *   turns out not to be valid becomes the 401 it should have been;
 * - puts `X-Credits-Charged` / `X-Credits-Remaining` on every answer to a valid key;
 * - counts the credits charged and refunded in the metrics, where they move in the ledger.
 */
export const billing = (sql: Sql, metrics: Pick<Metrics, 'creditsCharged' | 'creditsRefunded'>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId } = c.var.operation;
    let chargeId: number | null = null;
    c.set('debit', async () => {
      const result = await debit(sql, {
        keyHash: c.var.apiKeyHash,
        price: creditCost,
        endpoint: operationId,
        requestId: c.var.requestId,
      });
      if (result.outcome === 'unauthorized') throw unauthorized();
      if (result.outcome === 'insufficient') {
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw insufficientCredits(creditCost, result.balance);
      }
      chargeId = result.chargeId;
      if (chargeId !== null) metrics.creditsCharged(operationId, creditCost);
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
    if (chargeId !== null && c.res.status >= 500) {
      const { refunded, balance } = await refund(sql, chargeId, c.var.requestId);
      metrics.creditsRefunded(operationId, refunded);
      c.set('creditsRefunded', refunded);
      c.set('credits', { credits_charged: 0, credits_remaining: balance });
      c.res = undefined;
      c.res = errorResponse(c, asApiError(c.error));
    }
    const credits = c.var.credits;
    if (credits !== undefined) {
      c.header('X-Credits-Charged', String(credits.credits_charged));
      c.header('X-Credits-Remaining', String(credits.credits_remaining));
    }
  });
