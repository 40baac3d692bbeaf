import { createMiddleware } from 'hono/factory';
import { hashApiKey, isTestApiKey, isWellFormedApiKey, looksLikeApiKey } from '../contract/api-key.ts';
import { keyInQueryString, unauthorized } from '../contract/errors.ts';
import { searchableQuery } from '../contract/query-string.ts';
import { credentialName, credentialParameters, keySchemes } from '../contract/request-rules.ts';
import type { AppEnv } from './app-env.ts';

/** The contract's security schemes, read at start-up: `Authorization: Bearer <key>` and the apiKey header. */
const { authorizationScheme, apiKeyHeader } = keySchemes();
const AUTHORIZATION = new RegExp(`^${authorizationScheme} +(\\S+) *$`, 'i');

/** Query parameter names that carry credentials by common convention: the contract's `x-credential-parameters`. */
const CREDENTIAL_PARAMETERS = credentialParameters();

/**
 * True when the URL carries what is, or is meant as, a key: a non-blank credential parameter
 * (`?api_key=…`, `?key=…`, `?access_token=…`), or one of our keys under any parameter name.
 * Names and values that are not valid percent-encoded UTF-8 are searched leniently decoded too,
 * so a malformed escape beside a key (`%61lk_…%FF`) does not hide it.
 */
function keyInUrl(url: string): boolean {
  return searchableQuery(url).some(({ names, values }) => {
    const credential = names.some((name) => CREDENTIAL_PARAMETERS.has(credentialName(name)));
    if (credential && values.some((value) => value.trim() !== '')) return true;
    return names.some(looksLikeApiKey) || values.some(looksLikeApiKey);
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
  const headerKey = c.req.header(apiKeyHeader);
  let bearerKey: string | undefined;
  if (authorization !== undefined) {
    bearerKey = AUTHORIZATION.exec(authorization)?.[1];
    if (bearerKey === undefined) throw unauthorized();
  }
  if (bearerKey !== undefined && headerKey !== undefined && bearerKey !== headerKey) throw unauthorized();
  const key = bearerKey ?? headerKey;
  if (key === undefined || !isWellFormedApiKey(key)) throw unauthorized();
  c.set('apiKeyHash', hashApiKey(key));
  c.set('sandbox', isTestApiKey(key));
  await next();
});
