import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import type { Sql } from '../db/client.ts';
import { debit, findCaller, refund } from '../db/billing.ts';
import { asApiError, insufficientCredits, unauthorized } from '../errors.ts';
import type { PendingRefunds } from '../pending-refunds.ts';
import { errorResponse } from './errors.ts';

/** A debit may have committed when it failed with one of these: the statement was sent, the answer lost. */
const OUTCOME_UNKNOWN_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '08003', '08006', '08007']);

/** How far the service's clock and the database's may disagree when an uncertain debit's charge is looked for. */
const CLOCK_SLACK_MS = 2_000;

/**
 * Billing around every API operation:
 * - gives the handler `debit()`, which checks the key and takes the operation's `x-credit-cost`
 *   atomically, with its ledger row, before the handler runs its query;
 * - refunds a charged call that failed on the server's side; when the database cannot take the
 *   refund at that moment, or the debit's own outcome is unknown, the refund is owed (PendingRefunds)
 *   and made once the database is back;
 * - settles "key before parameters" for calls rejected before the debit: a 400 from a key that
 *   turns out not to be valid becomes the 401 it should have been;
 * - puts `X-Credits-Charged` / `X-Credits-Remaining` on every answer to a valid key.
 */
export const billing = (sql: Sql, refunds: PendingRefunds) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId } = c.var.operation;
    let chargeId: number | null = null;
    c.set('debit', async () => {
      const request = { keyHash: c.var.apiKeyHash, price: creditCost, endpoint: operationId, requestId: c.var.requestId };
      const notBefore = new Date(Date.now() - CLOCK_SLACK_MS).toISOString();
      let result: Awaited<ReturnType<typeof debit>>;
      try {
        result = await debit(sql, request);
      } catch (error) {
        // The caller is told nothing was charged; if the debit did commit, its refund makes that true.
        const code = (error as { code?: unknown }).code;
        if (creditCost > 0 && typeof code === 'string' && OUTCOME_UNKNOWN_CODES.has(code)) {
          await refunds.owe({ kind: 'uncertain', requestId: request.requestId, keyHash: request.keyHash.toString('hex'), endpoint: operationId, notBefore });
        }
        throw error;
      }
      if (result.outcome === 'unauthorized') throw unauthorized();
      if (result.outcome === 'insufficient') {
        c.set('credits', { credits_charged: 0, credits_remaining: result.balance });
        throw insufficientCredits(creditCost, result.balance);
      }
      chargeId = result.chargeId;
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
      try {
        const { refunded, balance } = await refund(sql, chargeId, c.var.requestId);
        c.set('creditsRefunded', refunded);
        c.set('credits', { credits_charged: 0, credits_remaining: balance });
      } catch {
        // The database is away (or the refund's answer was lost): the refund is owed, on disk, and
        // made once the database is back. The balance after it cannot be read now: no credit headers.
        await refunds.owe({ kind: 'charge', chargeId, requestId: c.var.requestId });
        c.set('creditsRefunded', creditCost);
        c.set('refundOwed', true);
        c.set('credits', undefined);
      }
      c.res = undefined;
      c.res = errorResponse(c, asApiError(c.error));
    }
    const credits = c.var.credits;
    if (credits !== undefined) {
      c.header('X-Credits-Charged', String(credits.credits_charged));
      c.header('X-Credits-Remaining', String(credits.credits_remaining));
    }
  });
