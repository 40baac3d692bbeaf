import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { methodNotAllowed, unknownPath } from '../errors.ts';
import { allowedMethods, operationAt } from '../spec.ts';

/**
 * Answers, from the contract itself, the first two checks of every API request: an unknown path
 * is 404 and a method the path does not support is 405 with `Allow`, both before the key is read.
 */
export const contractRouting = createMiddleware<AppEnv>(async (c, next) => {
  const allowed = allowedMethods.get(c.req.path);
  if (!allowed) throw unknownPath(c.req.path);
  const operation = operationAt(c.req.path, c.req.method);
  if (!operation) throw methodNotAllowed(allowed);
  c.set('operation', operation);
  await next();
});
