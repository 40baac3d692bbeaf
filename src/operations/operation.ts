import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { Credits } from '../billing/credits.ts';
import type { Sql } from '../data/client.ts';
import type { ReadReplicas } from '../data/read-replicas.ts';
import { inSandbox } from '../data/sandbox.ts';
import type { App, AppEnv } from '../http/app-env.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** What operations may use; each one names only what it uses. */
export interface OperationDependencies {
  sql: Sql;
  /** Where lookups read: a read replica that is up, else the primary (`sql`). */
  reads: ReadReplicas;
  /** The service's clock; the history window follows it. */
  now: () => Date;
  logger: Logger;
  metrics: Metrics;
  /** How long /readyz waits for the database before it answers 503. */
  readinessTimeoutMs: number;
}

/**
 * Answers from the data the caller's key reaches: the live data, or, for a test key, the sandbox's
 * demo dataset (docs/product-rules.md §17), read from a replica when one serves (`reads`). Every
 * read of the answer, suggestions included, goes through the `data` it is given. A test key's
 * sandbox reads go to the replica too: the sandbox's tables are replicated like the others and
 * its transaction only sets the search_path, which a replica allows.
 */
export function withDataOf<T>(c: Context<AppEnv>, reads: ReadReplicas, answer: (data: Sql) => Promise<T>): Promise<T> {
  const sandbox = c.get('sandbox');
  return reads.read((data) => (sandbox ? inSandbox(data, answer) : answer(data)));
}

/**
 * What the call paid and the balance after it, for its body: the billing edge paid for the call
 * before its handler runs (http/billing.ts), so a handler always has them.
 */
export function paidCredits(c: Context<AppEnv>): Credits {
  const credits = c.get('credits');
  if (credits === undefined) throw new Error('a handler runs only once its call is paid (http/billing.ts)');
  return credits;
}

/**
 * Serves `route` (generated from openapi.yaml) with `handler`, typed from the route: the handler
 * reads its validated, normalized parameters with `c.req.valid(...)` and answers the route's
 * documented responses. The parameters were checked before the handler (http/parameters.ts) by
 * the same generated schemas that type them, around a pre-step on the raw query that sees what
 * they cannot (a parameter given twice, a malformed percent-escape); so they are not checked again here.
 */
export function registerOperation<R extends RouteConfig>(app: App, route: R, handler: RouteHandler<R, AppEnv>): void {
  app.openAPIRegistry.registerPath(route);
  // RouteHandler is a Handler whose input and responses are typed from the route; hono's `on`
  // takes it as the plain Handler it is at run time.
  // The contract's path template (`/api/v1/watches/{id}`) in hono's spelling (`:id`).
  const path = route.path.replace(/\{([^}]+)\}/g, ':$1');
  app.on(route.method.toUpperCase(), path, handler as unknown as Handler<AppEnv>);
}
