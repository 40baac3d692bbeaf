import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { allowedMethods, operationAt, pathTemplateOf } from '../contract/operations.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { AppEnv } from './app-env.ts';
import { asApiError } from './error-response.ts';

/**
 * Measures every request once and reports it twice: to the metrics (count by operation and
 * status, duration by operation) and as one JSON log line with the request id, operation, method,
 * path, status, credits and duration. Runs outside every other middleware but the request id, so
 * it sees the final answer, errors and refunds included.
 *
 * Neither report ever holds what the caller sent beyond the method: the path is logged only
 * when it is one the service serves (an unknown path is caller input and could hold anything, a
 * key included), the query string is never logged, and no header is.
 */
export const observeRequests = ({ logger, metrics }: { logger: Logger; metrics: Metrics }) => {
  // The line of an answered request holds only the fields below, none of them caller input beyond
  // the method, so the logger's redaction (defence in depth for lines that carry objects, such as
  // an error's) has nothing to find in it; skipping it saves about 5 µs per request.
  const requestLog = logger.child({}, { redact: [] });
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const milliseconds = performance.now() - started;
    const { operation, path } = servedRoute(c);
    const status = c.res.status;
    metrics.requestAnswered(operation, status, milliseconds / 1000);
    const fault = status >= 500 || c.get('billingFault') !== undefined;
    if (!fault && !logger.isLevelEnabled('info')) return;

    const line: Record<string, unknown> = {
      request_id: c.get('requestId'),
      operation,
      method: c.req.method,
      path,
      status,
      credits_charged: c.get('credits')?.credits_charged ?? 0,
      duration_ms: Math.round(milliseconds * 100) / 100,
    };
    const refunded = c.get('refund')?.refunded ?? 0;
    if (refunded > 0) line.credits_refunded = refunded;
    if (c.get('billingFault') !== undefined) line.billing_fault = c.get('billingFault');
    if (status >= 500) {
      const error = asApiError(c.error);
      line.err = error.cause ?? error;
      logger[status === 503 ? 'warn' : 'error'](line, 'request failed');
    } else if (c.get('billingFault') !== undefined) {
      logger.warn(line, 'request answered; billing step failed after it');
    } else {
      requestLog.info(line, 'request');
    }
  });
};

/**
 * The operation a request addressed and the served path it matched, from the service's own
 * tables: the contract's operationId for a contract path, its template for one with a watch id (a
 * 405 is counted under the path's GET, or its one method when it has no GET), the registered path
 * of another route (the docs and the contract documents), or `unmatched`.
 */
function servedRoute(c: Context<AppEnv>): { operation: string; path: string | undefined } {
  const requested = c.req.path;
  const template = pathTemplateOf(requested, allowedMethods.keys());
  if (template !== undefined) {
    const operation =
      c.get('operation') ?? operationAt(requested, 'GET') ?? operationAt(requested, allowedMethods.get(template)![0])!;
    return { operation: operation.operationId, path: operation.path };
  }
  const route = matchedRoutes(c).findLast((matched) => matched.method !== 'ALL');
  return route ? { operation: route.path, path: route.path } : { operation: 'unmatched', path: undefined };
}
