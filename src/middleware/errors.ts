import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { type ApiError, asApiError, errorBody, unknownPath } from '../errors.ts';
import { allowedMethods } from '../spec.ts';

/** An unreachable database is usually back within seconds (a restart, a fail-over). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The single mapping from an ApiError to an HTTP response; every route answers errors alike. */
export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  const extra: Record<string, number> = {};
  const credits = c.get('credits');
  if (error.code === 'not_found' && credits !== undefined && credits.credits_charged > 0) {
    extra.credits_charged = credits.credits_charged;
    extra.credits_remaining = credits.credits_remaining;
  }
  let message = error.message;
  if (error.isServerError) {
    const refunded = c.get('creditsRefunded') ?? 0;
    extra.credits_refunded = refunded;
    if (c.get('refundOwed')) message += ` The ${refunded} credits charged for this call are refunded as soon as the database is back.`;
    else message += refunded > 0 ? ` The ${refunded} credits charged for this call were refunded.` : ' Nothing was charged for this call.';
  }
  const headers: Record<string, string> = {};
  if (error.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  if (error.status === 405) headers.Allow = (allowedMethods.get(c.req.path) ?? []).join(', ');
  if (error.status === 503) headers['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
  return c.json(errorBody(error, extra, message), error.status, headers);
}

export function onError(error: Error, c: Context<AppEnv>): Response {
  const apiError = asApiError(error);
  if (apiError.isServerError) {
    console.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed:`, apiError.cause ?? apiError);
  }
  return errorResponse(c, apiError);
}

export function onNotFound(c: Context<AppEnv>): Response {
  return errorResponse(c, unknownPath(c.req.path));
}
