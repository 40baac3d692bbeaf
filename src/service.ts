import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertSender } from './alerts/alert-sender.ts';
import { type AppDependencies, createApp } from './app.ts';
import { Billing } from './billing/billing.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from './billing/idempotency.ts';
import { PendingRefunds } from './billing/pending-refunds.ts';
import type { Config } from './config.ts';
import { type ConnectOptions, connect, type Sql } from './data/client.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from './data/embedded.ts';
import { migrate } from './data/migrate.ts';
import { poolUse } from './data/pool-use.ts';
import { PrimaryWatch } from './data/primary-watch.ts';
import { ReadReplicas } from './data/read-replicas.ts';
import type { App } from './http/app-env.ts';
import { whenConnectionCloses } from './http/connection-close.ts';
import { createHttpServer } from './http/server.ts';
import { logMailer } from './mail/mailer.ts';
import { withOperatorSignature } from './mail/operator-signature.ts';
import { type Logger, silentLogger } from './observability/logger.ts';
import { Metrics } from './observability/metrics.ts';
import { loadSandboxDataset } from './synthetic/load.ts';
import { WatchNewsSender } from './watches/news-sender.ts';

export interface RunningService {
  url: string;
  sql: Sql;
  /**
   * Graceful shutdown: stops accepting connections, lets in-flight requests finish (up to the
   * shutdown timeout), makes refunds still owed if it can, then closes the pool and stops the
   * embedded server if this process started it.
   */
  close(): Promise<void>;
}

/** How long a shutdown keeps trying to make refunds still owed; what is left waits on disk for the next start. */
const OWED_REFUNDS_GRACE_MS = 3_000;

export interface StartOptions {
  log: (line: string) => void;
  /** Runs after migrations, before the port opens (the demo data and account), with no statement timeout. */
  prepare?: (sql: Sql) => Promise<void>;
  /** The structured log the app writes a line per request to. */
  logger?: Logger;
}

/** The service with every dependency built and started, its port not open yet. */
export interface OpenService {
  /** What the app is made of: the one composition of the service's parts. */
  dependencies: AppDependencies;
  /** Serves an app made of `dependencies` (the service's own: `createApp`) and starts sending alerts. */
  listen(app: App): Promise<RunningService>;
  close(): Promise<void>;
}

/**
 * Starts the database (the embedded server unless DATABASE_URL is set), applies pending
 * migrations, prepares, and listens.
 */
export async function startService(config: Config, options: StartOptions): Promise<RunningService> {
  const service = await openService(config, options);
  return service.listen(createApp(service.dependencies));
}

/**
 * The composition root: builds every part of the service from the config (database, billing,
 * replicas, metrics, mail, alerts, payments) and starts them in order, up to the open port.
 */
export async function openService(config: Config, { log, prepare, logger }: StartOptions): Promise<OpenService> {
  let embedded: EmbeddedServer | undefined;
  let databaseUrl = config.databaseUrl;
  if (databaseUrl === undefined) {
    log(`Starting the embedded PostgreSQL in ${config.embeddedDataDir} (port ${config.embeddedPort})`);
    embedded = await startEmbeddedPostgres(config.embeddedDataDir, config.embeddedPort);
    databaseUrl = embedded.url;
  }
  const requestPool: ConnectOptions = {
    connectTimeoutMs: config.connectTimeoutMs,
    statementTimeoutMs: config.statementTimeoutMs,
    fetchArrayTypes: false,
  };
  const sql = connect(databaseUrl, config.poolSize, requestPool);
  const reads = new ReadReplicas(
    sql,
    config.readUrls.length === 0
      ? undefined
      : {
          primaryUrl: databaseUrl,
          urls: config.readUrls,
          maxLagMs: config.readMaxLagMs,
          poolSize: config.poolSize,
          connectOptions: requestPool,
          log,
        },
  );
  const refunds = new PendingRefunds(sql, { directory: config.pendingRefundsDir, databaseUrl, log });
  // Which server takes the writes, on a connection of its own (docs/product-rules.md R20.7).
  const primary = new PrimaryWatch(
    connect(databaseUrl, 1, {
      connectTimeoutMs: config.connectTimeoutMs,
      statementTimeoutMs: 2_000,
      fetchArrayTypes: false,
    }),
  );
  const metrics = new Metrics(poolUse(sql), reads, primary);
  const now = () => new Date();
  const billing = new Billing(sql, {
    now,
    metrics,
    refunds,
    keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
    log,
  });
  // nodemailer is loaded only when mail goes out over SMTP: without it, links go to the log.
  const mailer = config.smtpUrl ? (await import('./mail/smtp.ts')).smtpMailer(config.smtpUrl, config.mailFrom) : null;
  let alerts: AlertSender | undefined;
  let watchNews: WatchNewsSender | undefined;
  let server: Server | undefined;
  let listeningUrl: string | undefined;
  let started = false;
  const close = async () => {
    if (server) await stopListening(server, config.shutdownTimeoutMs);
    // Answers still being written get a moment to report their delivery.
    if (started)
      await billing.stop().catch((error: Error) => log(`Could not end the service run cleanly: ${error.message}`));
    if (refunds.size > 0) await refunds.settle(OWED_REFUNDS_GRACE_MS);
    await refunds.stop();
    await alerts?.stop();
    await watchNews?.stop();
    mailer?.close();
    await reads.close();
    await primary.stop();
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  };
  try {
    // Through a transaction pooler these need a session of their own: the servers (DATABASE_SETUP_URL).
    const setupUrl = config.setupUrl ?? databaseUrl;
    await migrate(setupUrl);
    if (await loadSandboxDataset(setupUrl)) log('Loaded the demo dataset into the sandbox for test keys');
    await refunds.adoptLeftovers();
    // Before the first call: the runs found dead are ended and what they never delivered refunded.
    await billing.start();
    started = true;
    if (prepare) {
      // Loading the demo data may take longer than the statement timeout that protects callers.
      const setup = connect(setupUrl, config.poolSize, { connectTimeoutMs: config.connectTimeoutMs });
      try {
        await prepare(setup);
      } finally {
        await setup.end({ timeout: 5 });
      }
    }
    // Before the port opens, so the first lookups already read from the replicas that are up.
    await reads.start();
    primary.start();
    const publicUrl = () => new URL(config.publicUrl ?? listeningUrl ?? `http://${config.host}:${config.port}`);
    const webhooks = { allowPrivateAddresses: config.alertWebhookPrivateAddresses };
    // Every email, account or alert, ends with the operator's name and support address.
    const mail = withOperatorSignature(mailer ?? logMailer(log), config.operator);
    const sender = new AlertSender({
      sql,
      mailer: mail,
      publicUrl,
      webhook: webhooks,
      log,
    });
    alerts = sender;
    const newsSender = new WatchNewsSender({
      sql,
      mailer: mail,
      publicUrl,
      webhook: webhooks,
      postsPerSecond: config.watchPostsPerSecond,
      log,
    });
    watchNews = newsSender;
    // Loaded only when configured: the Stripe SDK holds 16 MB of memory.
    const payments = config.stripe
      ? new (await import('./payments/stripe-payments.ts')).StripePayments(
          sql,
          config.stripe,
          config.creditPacks,
          publicUrl,
          log,
        )
      : null;
    const dependencies: AppDependencies = {
      sql,
      reads,
      now,
      logger: logger ?? silentLogger,
      readinessTimeoutMs: config.readinessTimeoutMs,
      rateLimit: { requests: config.rateLimitPerMinute, windowSeconds: 60 },
      limits: config.http,
      unauthorizedFloorMs: config.unauthorizedFloorMs,
      metrics,
      billing,
      payments,
      web: {
        publicUrl,
        secureCookies: config.publicUrl?.startsWith('https:') ?? false,
        log,
        mailer: mail,
        webhooks,
      },
      operator: config.operator,
      watchLimit: config.watchLimit,
    };
    const listen = async (app: App): Promise<RunningService> => {
      try {
        const port = await new Promise<number>((resolve, reject) => {
          const http = createHttpServer(app.fetch, config.http, config.host);
          server = http;
          http.once('error', reject);
          http.listen(config.port, config.host, () => resolve((http.address() as AddressInfo).port));
          trackResponses(http);
        });
        listeningUrl = `http://${config.host}:${port}`;
        sender.start();
        await newsSender.start();
        return { url: listeningUrl, sql, close };
      } catch (error) {
        await close().catch(() => {});
        throw error;
      }
    };
    return { dependencies, listen, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/**
 * Closes the listening socket at once (new connections are refused) and every keep-alive
 * connection as soon as it is idle, so in-flight requests finish and nothing waits for
 * keep-alive timeouts; their answers say `Connection: close`, so clients do not send another
 * request on a connection about to close. Connections still busy after `graceMs` are closed.
 */
function stopListening(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const closeAfterAnswer = (response: ServerResponse) => {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    };
    for (const response of unanswered.get(server) ?? []) closeAfterAnswer(response);
    server.on('request', (_request, response) => closeAfterAnswer(response));
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The responses each server has not finished, so a shutdown can mark them. */
const unanswered = new WeakMap<Server, Set<ServerResponse>>();

function trackResponses(server: Server): void {
  const open = new Set<ServerResponse>();
  unanswered.set(server, open);
  server.on('request', (request, response: ServerResponse) => {
    open.add(response);
    // An answer that never had its turn on its connection (pipelined behind one that closed it)
    // gets no 'close' of its own.
    const stopWaiting = whenConnectionCloses(request.socket, () => open.delete(response));
    response.once('close', () => {
      open.delete(response);
      stopWaiting();
    });
  });
}
