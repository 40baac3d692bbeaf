import { createMiddleware } from 'hono/factory';
import { methodNotAllowed, unknownPath } from '../contract/errors.ts';
import { type ContractOperation, methodsByPath, operationAt, pathTemplateOf } from '../contract/operations.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Answers, from a table of operations, the first two checks of every API request: an unknown path
 * is 404 and a method the path does not support is 405 with `Allow`, both before the key is read.
 * The service routes the contract's operations; the benchmark adds its framework-floor operation
 * to the table so that it passes exactly the same checks.
 */
export function routeOperations(operations: readonly ContractOperation[]) {
  const allowedMethods = methodsByPath(operations);
  return createMiddleware<AppEnv>(async (c, next) => {
    const template = pathTemplateOf(c.req.path, allowedMethods.keys());
    const allowed = template === undefined ? undefined : allowedMethods.get(template);
    if (!allowed) throw unknownPath(c.req.path);
    const operation = operationAt(c.req.path, c.req.method, operations);
    if (!operation) throw methodNotAllowed(allowed);
    c.set('operation', operation);
    await next();
  });
}

/** What a path served with `GET` alone answers: `GET` and, implied by it, `HEAD`. */
const GET_ONLY = ['GET', 'HEAD'] as const;

/**
 * The same 405 with `Allow` for paths served beside the contract, with `GET` alone: the contract
 * itself and its reference docs. They are not operations of the contract, so the contract's table
 * does not list them; each is registered with this middleware in front of its `GET` handler.
 */
export const getOnlyRouting = createMiddleware<AppEnv>(async (c, next) => {
  if (!(GET_ONLY as readonly string[]).includes(c.req.method)) throw methodNotAllowed(GET_ONLY);
  await next();
});
