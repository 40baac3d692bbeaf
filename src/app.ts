import { OpenAPIHono } from '@hono/zod-openapi';
import type { Billing } from './billing/billing.ts';
import { PaidCalls } from './billing/paid-call.ts';
import { KeyRateLimit, type RateLimitPolicy } from './billing/rate-limit.ts';
import type { HttpLimits, OperatorSettings } from './config.ts';
import { mcpTools } from './contract/mcp-tools.ts';
import { type ContractOperation, contractOperations } from './contract/operations.ts';
import type { Sql } from './data/client.ts';
import type { ReadReplicas } from './data/read-replicas.ts';
import type { App, AppEnv } from './http/app-env.ts';
import { authentication } from './http/authentication.ts';
import { billing } from './http/billing.ts';
import { compressAnswers } from './http/compression.ts';
import { negotiatedMediaType } from './http/content-negotiation.ts';
import { routeOperations } from './http/contract-routing.ts';
import { onError, onNotFound } from './http/error-response.ts';
import { headAnswersLikeGet } from './http/head-requests.ts';
import { liveKeyOnly } from './http/live-key.ts';
import { mcpEndpoint } from './http/mcp.ts';
import { observeRequests } from './http/observability.ts';
import { validParameters } from './http/parameters.ts';
import { steadyRefusals } from './http/refusal-timing.ts';
import { requestId } from './http/request-id.ts';
import { requestLimits } from './http/request-limits.ts';
import { securityHeaders } from './http/security-headers.ts';
import type { Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import { registerContractDocuments } from './operations/contract-documents.ts';
import { registerCreateWatch } from './operations/createWatch.ts';
import { registerDeleteWatch } from './operations/deleteWatch.ts';
import { registerGetAccount } from './operations/getAccount.ts';
import { registerGetAccountLedger } from './operations/getAccountLedger.ts';
import { registerGetAccountUsage } from './operations/getAccountUsage.ts';
import { registerGetAdvertiserHistory } from './operations/getAdvertiserHistory.ts';
import { registerGetAdvertiserLandingDomains } from './operations/getAdvertiserLandingDomains.ts';
import { registerGetAdvertiserSummary } from './operations/getAdvertiserSummary.ts';
import { registerGetBrandBidReport } from './operations/getBrandBidReport.ts';
import { registerGetDomainSummary } from './operations/getDomainSummary.ts';
import { registerGetHealth } from './operations/getHealth.ts';
import { registerGetMetrics } from './operations/getMetrics.ts';
import { registerGetReadiness } from './operations/getReadiness.ts';
import { registerGetWatch } from './operations/getWatch.ts';
import { registerListWatchEvents } from './operations/listWatchEvents.ts';
import { registerListWatches } from './operations/listWatches.ts';
import { registerSearchAdvertisers } from './operations/searchAdvertisers.ts';
import { registerSendWatchTestEvent } from './operations/sendWatchTestEvent.ts';
import type { StripePayments } from './payments/stripe-payments.ts';
import { createStripeWebhooks } from './payments/stripe-webhook.ts';
import { createAccountPages } from './web/account-pages.ts';
import type { WebDependencies } from './web/web-env.ts';

export type { App } from './http/app-env.ts';

/** What the app is made of; the service builds each part once (service.ts), tests in test/support/app.ts. */
export interface AppDependencies {
  sql: Sql;
  /** Where lookups read (the service's read replicas, or the primary, `sql`). */
  reads: ReadReplicas;
  /** The service's clock; the history window and Idempotency-Key lifetimes follow it. */
  now: () => Date;
  /** The per-key rate limit; a quota of 0 requests turns it off. */
  rateLimit: RateLimitPolicy;
  /** Where the request log goes. */
  logger: Logger;
  /** The app's metrics, served at /metrics. */
  metrics: Metrics;
  /** How long /readyz waits for the database before it answers 503. */
  readinessTimeoutMs: number;
  /** The URL length limit (the server applies the others before the app sees a request). */
  limits: Pick<HttpLimits, 'maxUrlBytes'>;
  /** Every 401 is answered no sooner than this after the request arrived (http/refusal-timing.ts). */
  unauthorizedFloorMs: number;
  /** The money of every call; the service starts it (its run, recovery) before it takes calls. */
  billing: Billing;
  /** The account page's own needs (web/). */
  web: Omit<WebDependencies, 'sql' | 'now' | 'payments' | 'operator' | 'watchLimit'>;
  /** Credit purchases through Stripe: the account page's packs and `POST /webhooks/stripe`; null: none. */
  payments: StripePayments | null;
  /** Who runs the service: the account page, its emails and the served contract's `info` name them. */
  operator: OperatorSettings;
  /** The most live watches an account holds per dataset (`WATCH_LIMIT`, docs/product-rules.md R19.10). */
  watchLimit: number;
}

/**
 * The service's application: the HTTP edge (http/) in front of billing (billing/) in front of one
 * handler per contract operation (operations/). docs/architecture.md draws the path of a request.
 */
export function createApp(dependencies: AppDependencies): App {
  return createAppRouting(contractOperations, dependencies);
}

/**
 * The application for a table of operations (404, 405, then key, billing and parameters): the
 * contract's, or the contract's and the benchmark's framework floor, which whoever adds registers
 * on the app this returns (scripts/bench/operations.ts).
 */
export function createAppRouting(
  operations: readonly ContractOperation[],
  {
    sql,
    now,
    logger,
    reads,
    metrics,
    readinessTimeoutMs,
    rateLimit,
    limits,
    unauthorizedFloorMs,
    billing: service,
    web,
    payments,
    operator,
    watchLimit,
  }: AppDependencies,
): App {
  const app = new OpenAPIHono<AppEnv>();
  const routing = routeOperations(operations);

  app.use('*', headAnswersLikeGet);
  app.use('*', requestId);
  app.use('*', observeRequests({ logger, metrics }));
  app.use('*', compressAnswers);
  app.use('*', securityHeaders);
  app.use('*', requestLimits(limits));
  const keyRateLimit = rateLimit.requests > 0 ? new KeyRateLimit(rateLimit, sql) : null;
  app.use(
    '/api/*',
    steadyRefusals(unauthorizedFloorMs),
    routing,
    authentication,
    negotiatedMediaType,
    validParameters(now),
    billing(new PaidCalls(sql, service, { now, rateLimit: keyRateLimit })),
  );
  // The free operations outside /api (health, readiness, metrics) get the same 405 for other methods.
  for (const { path } of operations) if (!path.startsWith('/api/')) app.use(path, routing);
  app.onError(onError);
  app.notFound(onNotFound);

  registerGetAdvertiserSummary(app, { reads });
  registerGetDomainSummary(app, { reads });
  registerGetAdvertiserHistory(app, { reads, now });
  registerGetAdvertiserLandingDomains(app, { reads });
  registerGetBrandBidReport(app, { reads });
  registerSearchAdvertisers(app, { reads });
  registerGetAccount(app);
  registerGetAccountUsage(app, { sql });
  registerGetAccountLedger(app, { sql });
  registerCreateWatch(app, { sql, watchLimit });
  registerListWatches(app, { sql });
  registerGetWatch(app, { sql });
  registerDeleteWatch(app, { sql });
  registerListWatchEvents(app, { sql });
  registerSendWatchTestEvent(app, { sql, webhooks: web.webhooks ?? {} });
  registerGetHealth(app);
  registerGetReadiness(app, { sql, reads, readinessTimeoutMs });
  registerGetMetrics(app, { metrics });
  registerContractDocuments(app, { operator, publicUrl: web.publicUrl });
  // The same operations as tools for AI agents, billed through the same edge (docs/product-rules.md §21).
  app.use('/mcp', authentication, liveKeyOnly(sql));
  // The contract's operations only: a table with the benchmark's floor has no tool for it.
  app.all('/mcp', mcpEndpoint(app, mcpTools()));
  app.route('/account', createAccountPages({ ...web, sql, now, payments, operator, watchLimit }));
  if (payments) app.route('/webhooks', createStripeWebhooks(payments));
  return app;
}
