import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { KeyRateLimit } from '../billing/rate-limit.ts';
import { creditsText } from '../contract/credits-text.ts';
import { ApiError, errorBody, internalError, unavailable, unknownPath } from '../contract/errors.ts';
import { isUnavailable } from '../data/errors.ts';
import type { AppEnv } from './app-env.ts';

/** An unreachable database is usually back within seconds (a restart, a fail-over). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Any thrown value becomes an ApiError; what the caller did not cause is a 500 or a 503 (the
 * database out of reach, as data/errors.ts tells).
 */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isUnavailable(error)) return unavailable(error);
  return internalError(error);
}

/** The single mapping from an ApiError to an HTTP response; every route answers errors alike. */
export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  const extra: Record<string, number> = {};
  const credits = c.get('credits');
  // A data 404 (the lookup ran): charged, or free for a test key (docs/product-rules.md §17).
  if (error.code === 'not_found' && credits !== undefined && (credits.credits_charged > 0 || c.get('sandbox'))) {
    extra.credits_charged = credits.credits_charged;
    extra.credits_remaining = credits.credits_remaining;
  }
  let message = error.message;
  if (error.isServerError) {
    const refunded = c.get('refund')?.refunded ?? 0;
    extra.credits_refunded = refunded;
    if (c.get('refund')?.owed)
      message += ` The ${creditsText(refunded)} charged for this call are refunded as soon as the database is back.`;
    else
      message +=
        refunded > 0
          ? ` The ${creditsText(refunded)} charged for this call ${refunded === 1 ? 'was' : 'were'} refunded.`
          : ' Nothing was charged for this call.';
  }
  const headers: Record<string, string> = {};
  if (error.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  if (error.status === 405) headers.Allow = (error.allowed ?? []).join(', ');
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  else if (error.status === 503) headers['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
  const quota = c.get('quota');
  if (error.status === 429 && quota !== undefined) headers['Retry-After'] = String(KeyRateLimit.retryAfter(quota));
  return c.json(errorBody(error, extra, message), error.status, headers);
}

/** The failure itself is logged with the request's log line (observability.ts). */
export function onError(error: Error, c: Context<AppEnv>): Response {
  // Hono's own exceptions carry their complete answer.
  if (error instanceof HTTPException) return error.getResponse();
  return errorResponse(c, asApiError(error));
}

export function onNotFound(c: Context<AppEnv>): Response {
  return errorResponse(c, unknownPath(c.req.path));
}
