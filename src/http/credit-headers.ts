import { createMiddleware } from 'hono/factory';
import type { KeyRateLimit } from '../billing/rate-limit.ts';
import { setAnswerHeader } from './answer-headers.ts';
import type { AppEnv } from './app-env.ts';

/**
 * `X-Credits-Charged` / `X-Credits-Remaining` and the RateLimit headers on every answer to a valid
 * key (docs/product-rules.md §6, §8): what the call cost and the balance after it, once billing
 * knows them; a 401, or an answer whose balance cannot be read (a refund owed), carries none.
 * A test key's answers add `X-Sandbox: true` (§17).
 */
export const creditHeaders = (rateLimit: KeyRateLimit | null) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const credits = c.get('credits');
    if (credits === undefined) return;
    setAnswerHeader(c, 'X-Credits-Charged', String(credits.credits_charged));
    setAnswerHeader(c, 'X-Credits-Remaining', String(credits.credits_remaining));
    if (c.get('sandbox')) setAnswerHeader(c, 'X-Sandbox', 'true');
    if (rateLimit) {
      const quota = c.get('quota') ?? (await rateLimit.standing(c.get('apiKeyHash')));
      for (const [name, value] of Object.entries(rateLimit.headers(quota))) setAnswerHeader(c, name, value);
    }
  });
