import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.ts';
import { DEFAULT_HTTP_LIMITS, DEFAULT_UNAUTHORIZED_FLOOR_MS, type HttpLimits } from './config.ts';
import type { Sql } from './db/client.ts';
import { authentication, securityRequirement, securitySchemes } from './middleware/authentication.ts';
import { billing } from './middleware/billing.ts';
import { contractRouting } from './middleware/contract-routing.ts';
import { onError, onNotFound } from './middleware/errors.ts';
import { requestId } from './middleware/request-id.ts';
import { steadyRefusals } from './middleware/refusal-timing.ts';
import { requestLimits } from './middleware/request-limits.ts';
import { parameterError } from './params.ts';
import { registerAccount } from './routes/account.ts';
import { registerAdvertiserHistory } from './routes/advertiser-history.ts';
import { registerAdvertiserLandingDomains } from './routes/advertiser-landing-domains.ts';
import { registerAdvertiserSummary } from './routes/advertiser-summary.ts';
import { registerBrandBidReport } from './routes/brand-bid-report.ts';
import { registerContractDocuments } from './routes/contract-documents.ts';
import { registerDomainSummary } from './routes/domain-summary.ts';

export interface AppDependencies {
  sql: Sql;
  /** The service's clock; the history window follows it. */
  now?: () => Date;
  /** The URL length limit (the server applies the others before the app sees a request). */
  limits?: Pick<HttpLimits, 'maxUrlBytes'>;
  /** Every 401 is answered no sooner than this after the request arrived (middleware/refusal-timing.ts). */
  unauthorizedFloorMs?: number;
}

export type App = OpenAPIHono<AppEnv>;

export function createApp({
  sql,
  now = () => new Date(),
  limits = DEFAULT_HTTP_LIMITS,
  unauthorizedFloorMs = DEFAULT_UNAUTHORIZED_FLOOR_MS,
}: AppDependencies): App {
  const app = new OpenAPIHono<AppEnv>({
    // A request the generated validators reject is answered with the code our parameter rules give.
    defaultHook: (result, c) => {
      if (!result.success) throw parameterError(c, result.error.issues.map((issue) => String(issue.path[0])));
    },
  });

  app.use('*', requestId, requestLimits(limits));
  app.use('/api/*', steadyRefusals(unauthorizedFloorMs), contractRouting, authentication, billing(sql));
  app.onError(onError);
  app.notFound(onNotFound);

  const deps = { sql, now, limits, unauthorizedFloorMs };
  registerAdvertiserSummary(app, deps);
  registerDomainSummary(app, deps);
  registerAdvertiserHistory(app, deps);
  registerAdvertiserLandingDomains(app, deps);
  registerBrandBidReport(app, deps);
  registerAccount(app, deps);
  registerContractDocuments(app);
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

export type RouteDependencies = Required<AppDependencies>;
