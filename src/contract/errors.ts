import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { components } from '../../generated/api-types.ts';
import { redactApiKeys } from './api-key.ts';
import { creditsText } from './credits-text.ts';
import { openapiDocument, resolveRef } from './document.ts';
import type { OpenAPIV31 } from './openapi-types.ts';

type Schemas = components['schemas'];

/**
 * The one error type of the API. Every failure a caller can see is an ApiError with a code of the
 * contract; `errorBody` and the status table are the only mapping to HTTP.
 *
 * The codes are those of openapi.yaml: the `error` of every error body schema (one with `error`
 * and `message`), as generated into generated/api-types.ts. The refusals of the HTTP request
 * itself, before it reaches an operation (src/http/server.ts and src/http/request-limits.ts), are
 * among them: they name the limit that was hit and cost nothing.
 */
export type ErrorCode = {
  [Name in keyof Schemas]: Schemas[Name] extends { error: infer Code extends string; message: string } ? Code : never;
}[keyof Schemas];

export type ErrorStatus = ContentfulStatusCode;

/**
 * The status of each code, read from the contract at start-up: the status under which openapi.yaml
 * documents the responses whose body carries the code, in the operations' `responses` and in
 * `x-refusals-before-operations` (the answers to requests that reach no operation). A code
 * documented under two statuses, or one no response carries, stops the start.
 */
export const ERROR_STATUSES: ReadonlyMap<string, ErrorStatus> = readErrorStatuses();

export function readErrorStatuses(document: OpenAPIV31 = openapiDocument): Map<string, ErrorStatus> {
  const statuses = new Map<string, ErrorStatus>();
  const read = (responses: Record<string, unknown> | undefined, where: string) => {
    for (const [status, reference] of Object.entries(responses ?? {})) {
      for (const content of Object.values<any>(resolveRef(reference, document)?.content ?? {})) {
        const codes = errorCodesOf(resolveRef(content?.schema, document), `${where} ${status}`, document);
        if (codes.length === 0) continue;
        const number = Number(status);
        if (!Number.isInteger(number) || number < 400 || number > 599)
          throw new Error(`openapi.yaml: ${where} documents error codes under ${status}, which is not an error status`);
        for (const error of codes) {
          const before = statuses.get(error);
          if (before !== undefined && before !== number)
            throw new Error(
              `openapi.yaml: the error code ${error} is documented under ${before} and under ${status} (${where})`,
            );
          statuses.set(error, number as ErrorStatus);
        }
      }
    }
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<any>(item))
      read(operation?.responses, `${method.toUpperCase()} ${path}`);
  }
  const refusals = document['x-refusals-before-operations'] as { responses?: Record<string, unknown> } | undefined;
  read(refusals?.responses, 'x-refusals-before-operations');
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    for (const error of errorCodesOf(resolveRef(schema, document), `components/schemas/${name}`, document)) {
      if (!statuses.has(error))
        throw new Error(
          `openapi.yaml: the error code ${error} (components/schemas/${name}) ` +
            `is in no operation's responses nor in x-refusals-before-operations`,
        );
    }
  }
  return statuses;
}

/** The codes an error body schema allows (its `error`'s const or enum); none for a schema that is no error body. */
function errorCodesOf(schema: any, where: string, document: OpenAPIV31): string[] {
  const properties = schema?.properties;
  if (properties?.error === undefined || properties?.message === undefined) return [];
  const error = resolveRef(properties.error, document);
  const codes = error?.const !== undefined ? [error.const] : error?.enum;
  if (!Array.isArray(codes) || codes.length === 0 || !codes.every((code) => typeof code === 'string')) {
    throw new Error(`openapi.yaml: the error of ${where} needs a const or an enum of codes`);
  }
  return codes;
}

/** The status the contract documents for `code`. */
export function statusOf(code: ErrorCode): ErrorStatus {
  const status = ERROR_STATUSES.get(code);
  if (status === undefined) throw new Error(`openapi.yaml documents no status for the error code ${code}`);
  return status;
}

export class ApiError extends Error {
  readonly status: ErrorStatus;
  /** The methods the addressed resource supports, for the `Allow` header of a 405. */
  readonly allowed: readonly string[] | undefined;
  /** Seconds after which a retry can succeed, for the `Retry-After` header, when the error knows it. */
  readonly retryAfter: number | undefined;
  /** What a data 404 suggests instead ("did you mean"): the body's last field, when there are any. */
  readonly suggestions: readonly string[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Fields the body carries after `error` and `message`, in order. */
    readonly details: Record<string, number | readonly string[]> = {},
    options?: { cause?: unknown; allowed?: readonly string[]; retryAfter?: number; suggestions?: readonly string[] },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = statusOf(code);
    this.allowed = options?.allowed;
    this.retryAfter = options?.retryAfter;
    this.suggestions = options?.suggestions ?? [];
  }

  get isServerError(): boolean {
    return this.status >= 500;
  }
}

export const unauthorized = () =>
  new ApiError(
    'unauthorized',
    'A valid API key is required: send it as "Authorization: Bearer <key>" or "x-api-key: <key>".',
  );

/**
 * A key sent in the URL is refused even when the headers carry a valid one: URLs end up in proxy
 * and server logs, browser history and `Referer` headers, so accepting it would teach a client a
 * habit that leaks its key. The caller learns at once, before anything is charged.
 */
export const keyInQueryString = () =>
  new ApiError(
    'unauthorized',
    'API keys are not accepted in the URL: send the key in the ' +
      '"Authorization: Bearer <key>" or "x-api-key: <key>" header. ' +
      'A key that was sent in a URL may have been logged on the way; consider replacing it.',
  );

export const insufficientCredits = (required: number, balance: number) =>
  new ApiError('insufficient_credits', `This call costs ${creditsText(required)} and the balance is ${balance}.`, {
    required,
    balance,
  });

/** The key's daily cap (docs/product-rules.md §14): it starts afresh at the next midnight UTC. */
export const dailyCapReached = (required: number, dailyCap: number, spentToday: number, now: Date) =>
  new ApiError(
    'daily_cap_reached',
    `This call costs ${creditsText(required)} and would take this API key past its daily cap: ` +
      `${spentToday} of ${creditsText(dailyCap)} spent today (UTC). The cap starts afresh at 00:00 UTC.`,
    { required, daily_cap: dailyCap, spent_today: spentToday },
    { retryAfter: secondsToNextUtcMidnight(now) },
  );

function secondsToNextUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/** A lookup found nothing; `suggestions` are names or domains with data that resemble the one asked for. */
export const notFound = (message: string, suggestions: readonly string[] = []) =>
  new ApiError('not_found', message, {}, { suggestions });

/** The path is echoed, but never a key in it: whatever has a key's shape is replaced by `alk_…`. */
export const unknownPath = (path: string) =>
  new ApiError('not_found', `There is no endpoint at ${JSON.stringify(redactApiKeys(path))}.`);

export const methodNotAllowed = (allowed: readonly string[]) =>
  new ApiError('method_not_allowed', `This path supports ${allowed.join(' and ')} only.`, {}, { allowed });

/**
 * CONNECT asks for a tunnel, which only a proxy makes; this service is an origin server. 405 rather
 * than 400: the request is valid HTTP, its method is what is refused, and a client that sent it
 * (a proxy-configured tool) reports "CONNECT tunnel failed, response 405", which names the cause.
 */
export const connectNotSupported = (allowed: readonly string[]) =>
  new ApiError('method_not_allowed', 'This service does not support CONNECT.', {}, { allowed });

/** The `Accept` header allows none of the operation's media types (docs/product-rules.md §16). */
export const notAcceptable = (supported: readonly string[]) =>
  new ApiError(
    'not_acceptable',
    `This operation answers in ${supported.join(' or ')}; send an Accept header that allows one of them, or none.`,
    { supported },
  );

export const idempotencyKeyReused = () =>
  new ApiError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used with another operation ' +
      'or query in the last 24 hours. Use a new key for a new request.',
  );

export const rateLimited = (requests: number, windowSeconds: number) =>
  new ApiError(
    'rate_limited',
    `This API key may make ${requests} requests per ${windowSeconds} seconds. Retry after the seconds in Retry-After.`,
  );
export const uriTooLong = (maxBytes: number) =>
  new ApiError('uri_too_long', `The request URL is longer than ${maxBytes} bytes.`);

export const headersTooLarge = (maxBytes: number) =>
  new ApiError('headers_too_large', `The request line and headers together are larger than ${maxBytes} bytes.`);

export const requestTimeout = () =>
  new ApiError('request_timeout', 'The request was not received completely in time; the connection is closed.');

export const badRequest = () => new ApiError('bad_request', 'The request is not valid HTTP/1.1.');

/** An `Expect` header the service cannot meet: only `Expect: 100-continue` is understood (RFC 9110 §10.1.1). */
export const expectationFailed = () =>
  new ApiError(
    'expectation_failed',
    'The service meets no expectation but "Expect: 100-continue"; send the request without the Expect header.',
  );

export const internalError = (cause: unknown) =>
  new ApiError('internal_error', 'The service failed to answer.', {}, { cause });

export const unavailable = (cause: unknown) =>
  new ApiError('unavailable', 'The service is temporarily unavailable. Retry later.', {}, { cause });

/** The first request with this Idempotency-Key is still running after the longest wait for it. */
export const idempotencyKeyBusy = () =>
  new ApiError(
    'unavailable',
    'The first request with this Idempotency-Key is still running. Retry later to get its response.',
  );

export function errorBody(
  error: ApiError,
  extra: Record<string, number> = {},
  message = error.message,
): Record<string, unknown> {
  const body: Record<string, unknown> = { error: error.code, message, ...error.details, ...extra };
  if (error.suggestions.length > 0) body.suggestions = error.suggestions;
  return body;
}
