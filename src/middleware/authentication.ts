import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { keyInQueryString, unauthorized } from '../errors.ts';
import { hashApiKey, isWellFormedApiKey, looksLikeApiKey } from '../keys/api-key.ts';
import { parseQuery } from '../query-string.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/** Query parameter names that carry credentials by common convention (compared case-insensitively, `-` as `_`). */
const CREDENTIAL_PARAMETERS = new Set(['api_key', 'apikey', 'key', 'access_token', 'x_api_key', 'token']);

/**
 * True when the URL carries what is, or is meant as, a key: a non-blank credential parameter
 * (`?api_key=…`, `?key=…`, `?access_token=…`), or one of our keys under any parameter name.
 */
function keyInUrl(url: string): boolean {
  return parseQuery(url).some(({ name, value, raw }) => {
    const text = value ?? raw;
    if (CREDENTIAL_PARAMETERS.has(name.toLowerCase().replace(/-/g, '_')) && text.trim() !== '') return true;
    return looksLikeApiKey(name) || looksLikeApiKey(text);
  });
}

/**
 * Reads the key from `Authorization: Bearer` or `x-api-key` (equivalent; both present must agree)
 * and rejects a malformed one without touching the database. Whether the key exists, is revoked
 * or belongs to a disabled account is settled by the debit, in the same round trip.
 * A key in the URL is refused first, whatever the headers carry (see `keyInQueryString`).
 */
export const authentication = createMiddleware<AppEnv>(async (c, next) => {
  if (keyInUrl(c.req.url)) throw keyInQueryString();
  const authorization = c.req.header('authorization');
  const headerKey = c.req.header('x-api-key');
  let bearerKey: string | undefined;
  if (authorization !== undefined) {
    bearerKey = BEARER.exec(authorization)?.[1];
    if (bearerKey === undefined) throw unauthorized();
  }
  if (bearerKey !== undefined && headerKey !== undefined && bearerKey !== headerKey) throw unauthorized();
  const key = bearerKey ?? headerKey;
  if (key === undefined || !isWellFormedApiKey(key)) throw unauthorized();
  c.set('apiKeyHash', hashApiKey(key));
  await next();
});

/** The two equivalent ways to present a key, as the contract's security schemes. */
export const securitySchemes = {
  bearerAuth: { type: 'http', scheme: 'bearer' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
} as const;

/** Either scheme alone satisfies an operation. */
export const securityRequirement: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
