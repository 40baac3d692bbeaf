import { OpenAPIHono } from '@hono/zod-openapi';
import type { Handler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { DEFAULT_HTTP_LIMITS, DEFAULT_RATE_LIMIT_PER_MINUTE, DEFAULT_UNAUTHORIZED_FLOOR_MS, type HttpLimits } from './config.ts';
import type { Sql } from './db/client.ts';
import { poolUse } from './db/pool-use.ts';
import { silentLogger, type Logger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { authentication, securityRequirement, securitySchemes } from './middleware/authentication.ts';
import { billing } from './middleware/billing.ts';
import { contractRouting, routeOperations } from './middleware/contract-routing.ts';
import { onError, onNotFound } from './middleware/errors.ts';
import { KeyRateLimit, type RateLimitPolicy } from './middleware/rate-limit.ts';
import { observeRequests } from './middleware/observability.ts';
import { requestId } from './middleware/request-id.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { steadyRefusals } from './middleware/refusal-timing.ts';
import { requestLimits } from './middleware/request-limits.ts';
import { parameterError } from './params.ts';
import { PendingRefunds } from './pending-refunds.ts';
import { registerAccount } from './routes/account.ts';
import { registerAdvertiserHistory } from './routes/advertiser-history.ts';
import { registerAdvertiserLandingDomains } from './routes/advertiser-landing-domains.ts';
import { registerAdvertiserSummary } from './routes/advertiser-summary.ts';
import { registerBrandBidReport } from './routes/brand-bid-report.ts';
import { registerContractDocuments } from './routes/contract-documents.ts';
import { registerDomainSummary } from './routes/domain-summary.ts';
import { registerHealthz } from './routes/healthz.ts';
import { registerMetrics } from './routes/metrics.ts';
import { registerReadyz } from './routes/readyz.ts';
import { allowedMethods, contractOperations, type ContractOperation } from './spec.ts';

export interface AppDependencies {
  sql: Sql;
  /** The service's clock; the history window and Idempotency-Key lifetimes follow it. */
  now?: () => Date;
  /** The per-key rate limit; a quota of 0 requests turns it off. Default: the generous limit of the config. */
  rateLimit?: RateLimitPolicy;
  /** Where the request log goes; nowhere by default (tests that read it pass their own). */
  logger?: Logger;
  /** The app's metrics, served at /metrics; new ones by default. */
  metrics?: Metrics;
  /** How long /readyz waits for the database before it answers 503. */
  readinessTimeoutMs?: number;
  /** The URL length limit (the server applies the others before the app sees a request). */
  limits?: Pick<HttpLimits, 'maxUrlBytes'>;
  /** Every 401 is answered no sooner than this after the request arrived (middleware/refusal-timing.ts). */
  unauthorizedFloorMs?: number;
  /**
   * Operations served beside the contract's, behind the same middleware. Only the benchmark sets
   * this (its framework floor, scripts/bench/server.ts); the service serves the contract alone.
   */
  extraOperations?: readonly ExtraOperation[];
  /** Refunds owed while the database was away; in memory only unless the service gives it a folder. */
  refunds?: PendingRefunds;
}

/** An operation outside the contract, with its handler. */
export interface ExtraOperation {
  operation: ContractOperation;
  handler: Handler<AppEnv>;
}

export type App = OpenAPIHono<AppEnv>;

export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { requests: DEFAULT_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };

export function createApp({
  sql,
  now = () => new Date(),
  logger = silentLogger,
  metrics = new Metrics(poolUse(sql)),
  readinessTimeoutMs = 2_000,
  rateLimit = DEFAULT_RATE_LIMIT,
  limits = DEFAULT_HTTP_LIMITS,
  unauthorizedFloorMs = DEFAULT_UNAUTHORIZED_FLOOR_MS,
  extraOperations = [],
  refunds = new PendingRefunds(sql),
}: AppDependencies): App {
  const app = new OpenAPIHono<AppEnv>({
    // A request the generated validators reject is answered with the code our parameter rules give.
    defaultHook: (result, c) => {
      if (!result.success) throw parameterError(c, result.error.issues.map((issue) => String(issue.path[0])));
    },
  });

  app.use('*', requestId);
  app.use('*', observeRequests({ logger, metrics }));
  app.use('*', securityHeaders);
  app.use('*', requestLimits(limits));
  const routing = extraOperations.length === 0 ? contractRouting : routeOperations([...contractOperations, ...extraOperations.map((extra) => extra.operation)]);
  app.use('/api/*', steadyRefusals(unauthorizedFloorMs), routing, authentication, billing(sql, { now, metrics, refunds, rateLimit: rateLimit.requests > 0 ? new KeyRateLimit(rateLimit) : null }));
  // The free operations outside /api (health, readiness, metrics) get the same 405 for other methods.
  for (const path of allowedMethods.keys()) if (!path.startsWith('/api/')) app.use(path, contractRouting);
  app.onError(onError);
  app.notFound(onNotFound);

  const deps = { sql, now, logger, metrics, readinessTimeoutMs, refunds };
  registerAdvertiserSummary(app, deps);
  registerDomainSummary(app, deps);
  registerAdvertiserHistory(app, deps);
  registerAdvertiserLandingDomains(app, deps);
  registerBrandBidReport(app, deps);
  registerAccount(app, deps);
  registerHealthz(app);
  registerReadyz(app, deps);
  registerMetrics(app, deps);
  registerContractDocuments(app);
  for (const { operation, handler } of extraOperations) app.on(operation.method, operation.path, handler);
  for (const [name, scheme] of Object.entries(securitySchemes)) {
    app.openAPIRegistry.registerComponent('securitySchemes', name, { ...scheme });
  }
  return app;
}

/** The OpenAPI document of what the app actually registered, for comparison with openapi.yaml. */
export function servedContract(app: App) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'Served routes', version: '0' },
    security: securityRequirement,
  });
}

export type RouteDependencies = Required<Pick<AppDependencies, 'sql' | 'now' | 'logger' | 'metrics' | 'readinessTimeoutMs' | 'refunds'>>;
