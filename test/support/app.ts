import { type App, type AppDependencies, createApp } from '../../src/app.ts';
import { Billing } from '../../src/billing/billing.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../src/billing/idempotency.ts';
import type { RateLimitPolicy } from '../../src/billing/rate-limit.ts';
import {
  DEFAULT_HTTP_LIMITS,
  DEFAULT_OPERATOR,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_UNAUTHORIZED_FLOOR_MS,
  DEFAULT_WATCH_LIMIT,
} from '../../src/config.ts';
import { poolUse } from '../../src/data/pool-use.ts';
import { ReadReplicas } from '../../src/data/read-replicas.ts';
import { logMailer } from '../../src/mail/mailer.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { Metrics } from '../../src/observability/metrics.ts';

/** The service's default per-key rate limit, as a start without RATE_LIMIT_PER_MINUTE has it. */
export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { requests: DEFAULT_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };

/** An account page that links to http://localhost, mails nowhere and logs nothing. */
const NO_WEB: AppDependencies['web'] = {
  publicUrl: () => new URL('http://localhost'),
  secureCookies: false,
  log: () => {},
  mailer: logMailer(() => {}),
};

export type TestAppOptions = Pick<AppDependencies, 'sql'> & Partial<AppDependencies>;

/**
 * The tests' composition of the app: what a test does not give is built as a local start has it
 * (the config's defaults), on the test's database, with an in-memory billing (no owed refunds on
 * disk, not started), no replicas, a silent log and no payments.
 */
export function testAppDependencies({ sql, ...given }: TestAppOptions): AppDependencies {
  const now = given.now ?? (() => new Date());
  const reads = given.reads ?? new ReadReplicas(sql);
  const metrics = given.metrics ?? new Metrics(poolUse(sql), reads);
  return {
    sql,
    now,
    reads,
    metrics,
    logger: silentLogger,
    readinessTimeoutMs: 2_000,
    rateLimit: DEFAULT_RATE_LIMIT,
    limits: DEFAULT_HTTP_LIMITS,
    unauthorizedFloorMs: DEFAULT_UNAUTHORIZED_FLOOR_MS,
    billing: given.billing ?? new Billing(sql, { now, metrics, keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS }),
    web: NO_WEB,
    payments: null,
    operator: DEFAULT_OPERATOR,
    watchLimit: DEFAULT_WATCH_LIMIT,
    ...given,
  };
}

/** The service's app (createApp) composed for a test. */
export function testApp(options: TestAppOptions): App {
  return createApp(testAppDependencies(options));
}
