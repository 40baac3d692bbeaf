import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import type { PaidCall, PaidCalls } from '../billing/paid-call.ts';
import { unauthorized } from '../contract/errors.ts';
import type { StoredResponse } from '../data/idempotency.ts';
import { setAnswerHeader } from './answer-headers.ts';
import type { AppEnv } from './app-env.ts';
import { answerDelivered } from './delivery.ts';
import { asApiError, errorResponse, onError } from './error-response.ts';

/**
 * The HTTP edge of billing (billing/paid-call.ts), around every API operation, after the steps
 * that need no database (routing, the key's shape, `Accept`, parameters):
 * - first, a request those steps refused (406, 400) learns its key's standing from billing: the key
 *   comes first (docs/product-rules.md §5), so an unknown key is answered 401, a valid one gets the
 *   refusal with its balance like every answer to a valid key; nothing else runs;
 * - gives the handler `debit()`, which pays for the call and turns what that came to into the
 *   request's credits and rate-limit standing (for the credit headers and error bodies) and the
 *   handler's run, or its answer: the refusal's error, or the replay of a stored response;
 * - on the way out, ends the call: a charged 5xx becomes the error body that says the credits were
 *   refunded (or are owed); a claim that could not be settled is the log line's billing fault;
 * - watches a charged answer leave the process (http/delivery.ts) and tells billing;
 * - last, the credit headers of an answer to a valid key (`creditHeaders`).
 */
export const billing = (calls: PaidCalls) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId, mediaTypes } = c.get('operation');
    const call = calls.begin({
      operationId,
      price: creditCost,
      keyHash: c.get('apiKeyHash'),
      sandbox: c.get('sandbox'),
      requestId: c.get('requestId'),
    });

    const refusal = c.get('refusal');
    if (refusal !== undefined) {
      // Whether the key exists only the database knows: a refused request alone asks it here.
      const standing = await call.keyStanding();
      if (standing === null) throw unauthorized();
      c.set('credits', standing.credits);
      c.set('quota', standing.quota);
      answerError(c, refusal);
      await creditHeaders(c, calls, call);
      return;
    }

    c.set('debit', async () => {
      const { query, idempotencyKey } = c.get('parameters');
      const mediaType = c.get('mediaType');
      const payment = await call.pay({
        query,
        otherMediaType: mediaType === mediaTypes[0] ? undefined : mediaType,
        idempotencyKey,
      });
      c.set('credits', payment.credits);
      c.set('quota', payment.quota);
      if (payment.outcome === 'refused') throw payment.error;
      if (payment.outcome === 'replayed') throw new Replay(payment.response);
      c.set('keyPrefix', payment.caller.keyPrefix);
      c.set('accountId', payment.caller.accountId);
      return payment.credits;
    });

    await next();

    const answer = c.res;
    const ended = await call.end({
      status: answer.status,
      read: async () => ({
        contentType: answer.headers.get('content-type'),
        body: Buffer.from(await answer.clone().arrayBuffer()),
      }),
    });
    if (ended.refund !== undefined) {
      const { refunded, owed, credits } = ended.refund;
      c.set('refund', { refunded, owed });
      c.set('credits', credits);
      c.res = undefined;
      c.res = errorResponse(c, asApiError(c.error));
    }
    if (ended.fault !== undefined) c.set('billingFault', ended.fault);
    if (ended.delivers) void answerDelivered(c).then((sent) => call.answerLeft(sent));
    await creditHeaders(c, calls, call);
  });

/** Answers `error` as if it had been thrown here (app.onError), while the edge goes on. */
function answerError(c: Context<AppEnv>, error: unknown): void {
  c.error = error as Error;
  c.res = onError(c.error, c);
}

/**
 * `X-Credits-Charged` / `X-Credits-Remaining` and the RateLimit headers on every answer to a valid
 * key (docs/product-rules.md §6, §8): what the call cost and the balance after it, once billing
 * knows them; a 401, or an answer whose balance cannot be read (a refund owed), carries none.
 * A test key's answers add `X-Sandbox: true` (§17).
 */
async function creditHeaders(c: Context<AppEnv>, calls: PaidCalls, call: PaidCall): Promise<void> {
  const credits = c.get('credits');
  if (credits === undefined) return;
  setAnswerHeader(c, 'X-Credits-Charged', String(credits.credits_charged));
  setAnswerHeader(c, 'X-Credits-Remaining', String(credits.credits_remaining));
  if (c.get('sandbox')) setAnswerHeader(c, 'X-Sandbox', 'true');
  if (calls.rateLimit) {
    const quota = c.get('quota') ?? (await call.quota())!;
    for (const [name, value] of Object.entries(calls.rateLimit.headers(quota))) setAnswerHeader(c, name, value);
  }
}

/** Header that marks a replayed response. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The stored response as the answer to this request: status and body byte for byte, marked as a
 * replay. Thrown like Hono's HTTPException, so the handler does not run; the credit and rate-limit
 * headers are added afterwards and describe this request (nothing charged, the current balance).
 */
class Replay extends HTTPException {
  constructor(stored: StoredResponse) {
    const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
    if (stored.contentType !== null) headers['Content-Type'] = stored.contentType;
    super(stored.status as 200, { res: new Response(new Uint8Array(stored.body), { status: stored.status, headers }) });
  }
}
