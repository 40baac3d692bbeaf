import { createMiddleware } from 'hono/factory';
import type { Billing } from '../billing/billing.ts';
import type { KeyRateLimit } from '../billing/rate-limit.ts';
import { unauthorized } from '../contract/errors.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './error-response.ts';

/**
 * The key is checked before `Accept` and the parameters (docs/product-rules.md §5), but whether a well-formed
 * key exists is learnt from the database, by the debit, which runs after them. So a call refused
 * for its parameters learns afterwards whether its key is valid: if not, the 400 becomes the 401
 * it should have been; if so, the 400 (or 406) reports the balance like every answer to a valid key.
 */
export const keyBeforeParameters = (billing: Billing, rateLimit: KeyRateLimit | null) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.get('credits') !== undefined || (c.res.status !== 400 && c.res.status !== 406)) return;
    const caller = await billing.findCaller(c.get('apiKeyHash'));
    if (caller === null) {
      c.res = undefined;
      c.res = errorResponse(c, unauthorized());
      return;
    }
    c.set('credits', { credits_charged: 0, credits_remaining: caller.balance });
    // Read with the key, so the RateLimit headers cost no statement of their own.
    if (rateLimit) c.set('quota', rateLimit.standingIn(caller.window));
  });
