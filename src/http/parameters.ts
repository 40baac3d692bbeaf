import { createMiddleware } from 'hono/factory';
import { usageDaysAsked } from '../accounts/usage-days.ts';
import { ApiError } from '../contract/errors.ts';
import { contractOperations, pathParameterValues } from '../contract/operations.ts';
import { checkQueryParameter, idempotencyKeyParameter, queryParameters } from '../contract/parameters.ts';
import { usageRange } from '../contract/usage-range.ts';
import { checkBodyMediaType, watchAsk, watchBodyText, watchIdParameter } from '../contract/watch-request.ts';
import type { AppEnv } from './app-env.ts';

// Every query parameter the contract declares has its generated schema and its rule, and a
// required one its missing_* code; otherwise the start fails.
for (const operation of contractOperations)
  for (const parameter of operation.queryParameters) checkQueryParameter(parameter);

/** The rule of each path parameter the contract declares, by name (docs/product-rules.md R19.6). */
const PATH_PARAMETERS: Readonly<Record<string, (given: string) => string>> = { id: watchIdParameter };
/** The rule of each request body, by operationId: the value billing and the handler read (R19.3). */
const BODIES: Readonly<Record<string, (text: string) => Record<string, string>>> = {
  createWatch: (text) => ({ ...watchAsk(text) }),
};
for (const operation of contractOperations) {
  for (const name of operation.pathParameters ?? [])
    if (PATH_PARAMETERS[name] === undefined)
      throw new Error(`openapi.yaml declares the path parameter "${name}", which has no rule in http/parameters.ts`);
  if (operation.bodyMediaType !== undefined && BODIES[operation.operationId] === undefined)
    throw new Error(`openapi.yaml: ${operation.operationId} takes a body, which has no rule in http/parameters.ts`);
}

type Query = Record<string, string | number>;

/** The usage range's default and longest lengths: the contract's. */
const USAGE_RANGE = usageRange();

/**
 * The rules an operation's parameters meet together, after each one's own, by operationId: a
 * usage range is not reversed and not too long (docs/product-rules.md R2.8.3). Its ends left out
 * take their defaults here, on the service's clock, so the days checked are the days answered.
 */
const ACROSS_PARAMETERS: Readonly<Record<string, (query: Query, now: Date) => Query>> = {
  getAccountUsage: (query, now) => ({
    ...query,
    ...usageDaysAsked(query as { from?: string; to?: string }, now, USAGE_RANGE),
  }),
};
for (const operationId of Object.keys(ACROSS_PARAMETERS))
  if (!contractOperations.some((operation) => operation.operationId === operationId))
    throw new Error(`http/parameters.ts: the contract has no operation ${operationId}`);

/**
 * The one validation of a request's parameters, after the key's shape and `Accept` and before
 * billing (docs/product-rules.md §5): the query parameters the operation declares, in order, then
 * the rules they meet together, then the Idempotency-Key header of a billed call (a free call
 * ignores it), each by the schema generated for it, the one that types the handler
 * (contract/parameters.ts). The first that fails is recorded as the request's refusal, not
 * answered: the key's standing comes first, and the billing edge (http/billing.ts) answers the
 * 400 or the 401. Otherwise the handler reads what the schemas made of them with
 * `c.req.valid('query')` (an optional parameter that is absent is not there, or has its default)
 * and billing finds them in `parameters`. A request already refused for its `Accept` is not looked at.
 */
export const validParameters = (now: () => Date) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('refusal') === undefined) {
      try {
        const operation = c.get('operation');
        // The path's parameters first (the resource), then the query's, then the body.
        const path: Record<string, string> = {};
        if (operation.pathParameters !== undefined)
          for (const [name, given] of Object.entries(pathParameterValues(operation.path, c.req.path)))
            path[name] = PATH_PARAMETERS[name]!(given);
        const declared = queryParameters(c.req.url, operation.queryParameters);
        const across = ACROSS_PARAMETERS[operation.operationId];
        let query = across === undefined ? declared : across(declared, now());
        let body: Record<string, string> | undefined;
        if (operation.bodyMediaType !== undefined) {
          checkBodyMediaType(c.req.header('content-type'));
          body = BODIES[operation.operationId]!(await watchBodyText(c.req.raw));
          // What the call asks is its body: the same body under one Idempotency-Key replays (R19.8).
          query = { ...query, ...body };
        }
        const takesKey = operation.creditCost > 0 || operation.bodyMediaType !== undefined;
        const idempotencyKey = takesKey ? idempotencyKeyParameter(c) : undefined;
        c.req.addValidatedData('query', query);
        c.req.addValidatedData('param', path);
        if (body !== undefined) c.req.addValidatedData('json', body);
        c.req.addValidatedData('header', idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey });
        c.set('parameters', { query, idempotencyKey });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        c.set('refusal', error);
      }
    }
    await next();
  });
