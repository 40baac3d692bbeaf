import { loadConfig } from './config.ts';
import { demoCurlLines, ensureDemoAccount } from './demo.ts';
import { createLogger } from './logger.ts';
import { loadDemoDataset } from './synthetic/load.ts';
import { startService } from './server.ts';

const log = (line: string) => console.log(line);
const startedAt = performance.now();
const config = loadConfig();
// Machine-readable JSON lines (start, stop, one per request); `log` keeps the lines for people.
const logger = createLogger();
let demoKey: string | null = null;

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
    demoKey = await ensureDemoAccount(sql);
  },
});

log(`Advertiser and Landing-Domain Lookup API listening on ${service.url} (ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
logger.info({ url: service.url, startup_ms: Math.round(performance.now() - startedAt) }, 'service started');
log(`  Reference docs: ${service.url}/docs    Contract: ${service.url}/openapi.yaml`);
if (demoKey) {
  log('');
  log(`Demo API key (shown once, never again; store it now): ${demoKey}`);
  log('Try every endpoint:');
  for (const line of demoCurlLines(service.url, demoKey)) log(`  ${line}`);
} else {
  log('The demo account already exists; its key was printed on the first start.');
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    logger.info({ signal }, 'service stopping');
    service.close().then(
      () => {
        logger.info('service stopped');
        process.exit(0);
      },
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
