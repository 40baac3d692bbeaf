import { createMiddleware } from 'hono/factory';
import { contractOperations } from '../contract/operations.ts';
import { checkQueryParameter, idempotencyKeyParameter, queryParameters } from '../contract/parameters.ts';
import type { AppEnv } from './app-env.ts';

// Every query parameter the contract declares has its generated schema and its rule, and a
// required one its missing_* code; otherwise the start fails.
for (const operation of contractOperations)
  for (const parameter of operation.queryParameters) checkQueryParameter(parameter);

/**
 * The one validation of a request's parameters, after the key's shape and before the debit
 * (docs/product-rules.md §5): the query parameters the operation declares, in order, then the
 * Idempotency-Key header of a billed call (a free call ignores it), each by the schema generated
 * for it, the one that types the handler (contract/parameters.ts). The first that fails answers
 * 400; otherwise the handler reads what the schemas made of them with `c.req.valid('query')` (an
 * optional parameter that is absent is not there, or has its default) and billing finds them in
 * `parameters`.
 */
export const validParameters = createMiddleware<AppEnv>(async (c, next) => {
  const operation = c.get('operation');
  const query = queryParameters(c.req.url, operation.queryParameters);
  const idempotencyKey = operation.creditCost > 0 ? idempotencyKeyParameter(c) : undefined;
  c.req.addValidatedData('query', query);
  c.req.addValidatedData('header', idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey });
  c.set('parameters', { query, idempotencyKey });
  await next();
});
