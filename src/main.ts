import { ConfigError, loadConfig } from './config.ts';
import { EmbeddedPostgresError } from './data/embedded.ts';
import { DEMO_ACCOUNT_EMAIL, demoCurlLines, ensureDemoAccount } from './demo.ts';
import { createLogger } from './observability/logger.ts';
import { type RunningService, startService } from './service.ts';
import { loadDemoDataset } from './synthetic/load.ts';

const log = (line: string) => console.log(line);

/**
 * A bad variable or an embedded database that cannot start ends the start with one line saying what to do, no stack
 * trace.
 */
function stopOnSetupError(error: unknown): never {
  if (!(error instanceof ConfigError || error instanceof EmbeddedPostgresError)) throw error;
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
}

const startedAt = performance.now();
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return stopOnSetupError(error);
  }
})();
// Machine-readable JSON lines (start, stop, one per request); `log` keeps the lines for people.
const logger = createLogger({ level: config.logLevel });
let demo = null as { key: string; password: string } | null;

// SIGINT/SIGTERM are handled from the first moment, so a stop asked for during the start is a
// graceful one too: the service closes as soon as it is up (nothing is left half-started).
let stopSignal: NodeJS.Signals | undefined;
let running: RunningService | undefined;
function shutDown(signal: NodeJS.Signals): void {
  log(`${signal}: shutting down`);
  logger.info({ signal }, 'service stopping');
  running!.close().then(
    () => {
      logger.info('service stopped');
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopSignal !== undefined) return;
    stopSignal = signal;
    if (running !== undefined) shutDown(signal);
  });
}

const service = await startService(config, {
  log,
  logger,
  async prepare(sql) {
    if (config.loadDemoData) {
      const loaded = await loadDemoDataset(sql);
      if (loaded) {
        const { observations, crawls, labels } = loaded;
        log(`Loaded the demo dataset: ${observations.read} observations, ${crawls.read} crawls, ${labels.read} labels`);
      }
    }
    demo = await ensureDemoAccount(sql);
  },
}).catch(stopOnSetupError);
running = service;

log(
  `Advertiser and Landing-Domain Lookup API listening on ${service.url} ` +
    `(ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`,
);
logger.info({ url: service.url, startup_ms: Math.round(performance.now() - startedAt) }, 'service started');
log(`  Reference docs: ${service.url}/docs    Contract: ${service.url}/openapi.yaml`);
log(`  Account page: ${service.url}/account (sign up, keys, usage, ledger)`);
if (demo) {
  log('');
  log(
    `Demo account page sign-in (shown once, never again): ${DEMO_ACCOUNT_EMAIL} ` +
      `with the password ${demo.password}`,
  );
  log(`Demo API key (shown once, never again; store it now): ${demo.key}`);
  log('Try every endpoint:');
  for (const line of demoCurlLines(service.url, demo.key)) log(`  ${line}`);
} else {
  log('The demo account already exists; its key and password were printed on the first start.');
}

// A signal that came during the start is acted on now that there is something to close.
if (stopSignal !== undefined) shutDown(stopSignal);
