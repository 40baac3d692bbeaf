import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.ts';
import type { Sql } from './db/client.ts';
import { authentication, securityRequirement, securitySchemes } from './middleware/authentication.ts';
import { billing } from './middleware/billing.ts';
import { contractRouting } from './middleware/contract-routing.ts';
import { onError, onNotFound } from './middleware/errors.ts';
import { requestId } from './middleware/request-id.ts';
import { parameterError } from './params.ts';
import { PendingRefunds } from './pending-refunds.ts';
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
  /** Refunds owed while the database was away; in memory only unless the service gives it a folder. */
  refunds?: PendingRefunds;
}

export type App = OpenAPIHono<AppEnv>;

export function createApp({ sql, now = () => new Date(), refunds = new PendingRefunds(sql) }: AppDependencies): App {
  const app = new OpenAPIHono<AppEnv>({
    // A request the generated validators reject is answered with the code our parameter rules give.
    defaultHook: (result, c) => {
      if (!result.success) throw parameterError(c, result.error.issues.map((issue) => String(issue.path[0])));
    },
  });

  app.use('*', requestId);
  app.use('/api/*', contractRouting, authentication, billing(sql, refunds));
  app.onError(onError);
  app.notFound(onNotFound);

  const deps = { sql, now, refunds };
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
