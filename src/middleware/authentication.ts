import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { unauthorized } from '../errors.ts';
import { hashApiKey, isWellFormedApiKey } from '../keys/api-key.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Reads the key from `Authorization: Bearer` or `x-api-key` (equivalent; both present must agree)
 * and rejects a malformed one without touching the database. Whether the key exists, is revoked
 * or belongs to a disabled account is settled by the debit, in the same round trip.
 */
export const authentication = createMiddleware<AppEnv>(async (c, next) => {
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
