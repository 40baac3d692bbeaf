import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { PaidCall, PaidCalls } from '../billing/paid-call.ts';
import { unauthorized } from '../contract/errors.ts';
import type { StoredResponse } from '../data/idempotency.ts';
import { bodyAsMade, setAnswerHeader } from './answer-headers.ts';
import { type AppEnv, channelOf } from './app-env.ts';
import { answerDelivered } from './delivery.ts';
import { asApiError, errorResponse, onError } from './error-response.ts';

/**
 * The HTTP edge of billing (billing/paid-call.ts), the last step before every API operation's
 * handler, after the steps that need no database (routing, the key's shape, `Accept`, parameters).
 * It decides, before the handler, in the order of docs/product-rules.md §5:
 * - a request those steps refused (406, 400) learns its key's standing from billing, a query only
 *   such a request makes: an unknown key is answered 401, a valid one gets the refusal with its
 *   balance like every answer to a valid key;
 * - any other pays: refused (401, 402, 403, 422, 429, a key still busy) is that error's answer,
 *   replayed is the stored response, paid sets `credits` and `caller` for the handler and runs it.
 * On the way out it ends the call: a charged 5xx becomes the error body that says the credits were
 * refunded (or are owed); a claim that could not be settled is the log line's billing fault; a
 * charged answer is watched leaving the process (http/delivery.ts). Last, the credit headers of
 * an answer to a valid key (`creditHeaders`).
 */
export const billing = (calls: PaidCalls) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { creditCost, operationId, mediaTypes, unbilled } = c.get('operation');
    const call = calls.begin({
      operationId,
      price: creditCost,
      keyHash: c.get('apiKeyHash'),
      sandbox: c.get('sandbox'),
      requestId: c.get('requestId'),
      channel: channelOf(c),
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
    // The benchmark's framework floor: behind every check but billing (scripts/bench/operations.ts).
    if (unbilled) return next();

    const { query, idempotencyKey } = c.get('parameters');
    const mediaType = c.get('mediaType');
    const ask = { query, otherMediaType: mediaType === mediaTypes[0] ? undefined : mediaType, idempotencyKey };
    const payment = await call.pay(ask).catch((error: unknown) => {
      // A fault of the database (500, 503), nothing charged: answered here, so the call still ends
      // below (a claimed Idempotency-Key given back).
      answerError(c, error);
      return null;
    });
    if (payment !== null) {
      c.set('credits', payment.credits);
      c.set('quota', payment.quota);
      if (payment.outcome === 'refused') answerError(c, payment.error);
      else if (payment.outcome === 'replayed') c.res = replay(payment.response);
      else {
        c.set('caller', payment.caller);
        await next();
      }
    }

    const answer = c.res;
    const ended = await call.end({
      status: answer.status,
      read: async () => {
        const made = bodyAsMade(answer);
        return {
          contentType: answer.headers.get('content-type'),
          body: made === undefined ? Buffer.from(await answer.clone().arrayBuffer()) : Buffer.from(made),
        };
      },
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
 * replay; the handler does not run. The credit and rate-limit headers are added afterwards and
 * describe this request (nothing charged, the current balance).
 */
function replay(stored: StoredResponse): Response {
  const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
  if (stored.contentType !== null) headers['Content-Type'] = stored.contentType;
  return new Response(new Uint8Array(stored.body), { status: stored.status, headers });
}
