import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { methodNotAllowed, unknownPath } from '../errors.ts';
import { contractOperations, methodsByPath, operationAt, type ContractOperation } from '../spec.ts';

/**
 * Answers, from a table of operations, the first two checks of every API request: an unknown path
 * is 404 and a method the path does not support is 405 with `Allow`, both before the key is read.
 * The service routes the contract's operations alone (`contractRouting`); the benchmark adds its
 * framework-floor operation to the table so that it passes exactly the same checks.
 */
export function routeOperations(operations: readonly ContractOperation[]) {
  const allowedMethods = methodsByPath(operations);
  return createMiddleware<AppEnv>(async (c, next) => {
    const allowed = allowedMethods.get(c.req.path);
    if (!allowed) throw unknownPath(c.req.path);
    const operation = operationAt(c.req.path, c.req.method, operations);
    if (!operation) throw methodNotAllowed(allowed);
    c.set('operation', operation);
    await next();
  });
}

export const contractRouting = routeOperations(contractOperations);
