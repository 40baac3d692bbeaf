import fs from 'node:fs';
import { loadConfig } from '../../src/config.ts';
import { bufferedOutput, createLogger } from '../../src/observability/logger.ts';
import { openService } from '../../src/service.ts';
import { appWithFrameworkFloor } from './operations.ts';

/**
 * The service under benchmark: the same parts as `npm start` (`openService`), on the database the
 * harness gives in DATABASE_URL, serving the service's app plus the framework-floor operation. No demo
 * data or demo account: the harness brings its own dataset and keys. Prints one line with its
 * URL on standard output; SIGTERM closes it gracefully (in-flight requests finish).
 */
const config = loadConfig();
if (config.databaseUrl === undefined) throw new Error('the bench server needs DATABASE_URL');
// The request log as `npm start` writes it, at LOG_LEVEL, to the file the harness names
// (standard output carries the one line the harness reads).
const requestLog = process.env.BENCH_REQUEST_LOG;
const logger = createLogger({
  level: config.logLevel,
  destination: bufferedOutput(requestLog ? fs.openSync(requestLog, 'w') : 2),
});
const opened = await openService(config, { log: (line) => console.error(line), logger });
const service = await opened.listen(appWithFrameworkFloor(opened.dependencies));
console.log(JSON.stringify({ url: service.url, pid: process.pid }));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
