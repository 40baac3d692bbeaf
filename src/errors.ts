/**
 * The one error type of the API. Every failure a caller can see is an ApiError with a code from
 * product-decisions section 6; `toResponseBody` and the status table are the only mapping to HTTP.
 */
export type ErrorCode =
  | 'missing_name'
  | 'missing_domain'
  | 'invalid_name'
  | 'invalid_domain'
  | 'invalid_idempotency_key'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal_error'
  | 'unavailable'
  // Refusals of the HTTP request itself, before it reaches an operation (src/http-server.ts and
  // src/middleware/request-limits.ts). They name the limit that was hit and cost nothing.
  | 'bad_request'
  | 'request_timeout'
  | 'uri_too_long'
  | 'headers_too_large';

const STATUS: Record<ErrorCode, 400 | 401 | 402 | 404 | 405 | 408 | 414 | 422 | 429 | 431 | 500 | 503> = {
  missing_name: 400,
  missing_domain: 400,
  invalid_name: 400,
  invalid_domain: 400,
  invalid_idempotency_key: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  bad_request: 400,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
};

export class ApiError extends Error {
  readonly status: (typeof STATUS)[ErrorCode];

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Fields the body carries after `error` and `message`, in order. */
    readonly details: Record<string, number> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = STATUS[code];
  }

  get isServerError(): boolean {
    return this.status >= 500;
  }
}

export const unauthorized = () =>
  new ApiError('unauthorized', 'A valid API key is required: send it as "Authorization: Bearer <key>" or "x-api-key: <key>".');

/**
 * A key sent in the URL is refused even when the headers carry a valid one: URLs end up in proxy
 * and server logs, browser history and `Referer` headers, so accepting it would teach a client a
 * habit that leaks its key. The caller learns at once, before anything is charged.
 */
export const keyInQueryString = () =>
  new ApiError(
    'unauthorized',
    'API keys are not accepted in the URL: send the key in the "Authorization: Bearer <key>" or "x-api-key: <key>" header. ' +
      'A key that was sent in a URL may have been logged on the way; consider replacing it.',
  );

export const insufficientCredits = (required: number, balance: number) =>
  new ApiError('insufficient_credits', `This call costs ${required} credits and the balance is ${balance}.`, { required, balance });

export const notFound = (message: string) => new ApiError('not_found', message);

export const unknownPath = (path: string) => new ApiError('not_found', `There is no endpoint at ${JSON.stringify(path)}.`);

export const methodNotAllowed = (allowed: readonly string[]) =>
  new ApiError('method_not_allowed', `This path supports ${allowed.join(' and ')} only.`);

export const idempotencyKeyReused = () =>
  new ApiError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used with another operation or query in the last 24 hours. Use a new key for a new request.',
  );

export const rateLimited = (requests: number, windowSeconds: number) =>
  new ApiError('rate_limited', `This API key may make ${requests} requests per ${windowSeconds} seconds. Retry after the seconds in Retry-After.`);
export const uriTooLong = (maxBytes: number) =>
  new ApiError('uri_too_long', `The request URL is longer than ${maxBytes} bytes.`);

export const headersTooLarge = (maxBytes: number) =>
  new ApiError('headers_too_large', `The request line and headers together are larger than ${maxBytes} bytes.`);

export const requestTimeout = () =>
  new ApiError('request_timeout', 'The request was not received completely in time; the connection is closed.');

export const badRequest = () => new ApiError('bad_request', 'The request is not valid HTTP/1.1.');

export const internalError = (cause: unknown) =>
  new ApiError('internal_error', 'The service failed to answer.', {}, { cause });

export const unavailable = (cause: unknown) =>
  new ApiError('unavailable', 'The service is temporarily unavailable. Retry later.', {}, { cause });

/** The first request with this Idempotency-Key is still running after the longest wait for it. */
export const idempotencyKeyBusy = () =>
  new ApiError('unavailable', 'The first request with this Idempotency-Key is still running. Retry later to get its response.');

/** PostgreSQL conditions that mean "the database is not there right now", not "the query is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '57014']);
const UNAVAILABLE_CLIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);

/** Any thrown value becomes an ApiError; what the caller did not cause is a 500 or a 503. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_CLIENT_CODES.has(code))) return unavailable(error);
  return internalError(error);
}

export function errorBody(error: ApiError, extra: Record<string, number> = {}, message = error.message): Record<string, unknown> {
  return { error: error.code, message, ...error.details, ...extra };
}
