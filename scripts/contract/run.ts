/**
 * `npm run test:contract`: proves that the running service and openapi.yaml agree, on every
 * endpoint and every documented status code, under generated and hostile input.
 *
 *  1. Python tools (schemathesis, openapi-python-client), pinned, in the git-ignored .venv/.
 *  2. A fresh database (on DATABASE_URL's server when set, else an embedded PostgreSQL in a
 *     temporary folder), reached through a TCP relay so that step 6 can cut it off.
 *  3. The real service (src/main.ts) on it, with the demo data and the demo key it prints once;
 *     then keys of every kind: funded, without credits, revoked, of a disabled account, unknown,
 *     malformed.
 *  4. schemathesis against the served /openapi.json: every check, positive and negative input.
 *  5. Billing invariants on the database against every response of step 4.
 *  6. 402 for a key without credits, Idempotency-Key replays, 422 and 400 on the same live
 *     service, and 429 on a second service process on the same database with a quota of 3
 *     requests per key and minute; the watches' sequences (201, 200, 204, 405 on every path, the
 *     body's 400s and 415), and 409 on that second service, which allows one watch per account.
 *  7. 500 and 503 by fault injection, 414 and 431 by over-long requests, on the same live service.
 *  8. The Python client generated from openapi.yaml calls every operation; the MCP Python SDK
 *     calls the tools of /mcp.
 *  9. The coverage report: every documented status (and error code, and reason for 401) of every
 *     operation was produced (test-results/contract/coverage.md).
 *
 * `--thorough` runs a long local fuzzing (more examples, a random seed); `--seed N` and
 * `--max-examples N` set them explicitly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../../src/config.ts';
import { connect } from '../../src/data/client.ts';
import { buildCoverage } from './coverage.ts';
import { freshDatabase } from './database.ts';
import { startDatabaseProxy } from './db-proxy.ts';
import { produceServerErrors } from './faults.ts';
import { checkBilling, lastLedgerId, ledgerProblems } from './invariants.ts';
import { prepareKeys } from './keys.ts';
import { produceLimitRefusals } from './limits.ts';
import { generatePythonClient, pythonClientDir, runPythonClient, runPythonMcpClient } from './python-client.ts';
import { ensurePythonEnv } from './python-env.ts';
import { produceRetriesAndLimits, RATE_LIMIT_QUOTA } from './retries-and-limits.ts';
import { runSchemathesis } from './schemathesis.ts';
import { startService } from './service.ts';
import { produceWatchSequences } from './watches.ts';

const { values: options } = parseArgs({
  options: {
    thorough: { type: 'boolean', default: false },
    seed: { type: 'string' },
    'max-examples': { type: 'string' },
  },
});
const settings = {
  maxExamples: Number(options['max-examples'] ?? (options.thorough ? 2000 : 500)),
  seed: Number(options.seed ?? (options.thorough ? Math.floor(Math.random() * 2 ** 31) : 20261122)),
  workers: options.thorough ? 2 : 1,
};
const outputDir = path.join(projectRoot, 'test-results', 'contract');
const started = performance.now();
const log = (line: string) => console.log(`[contract] ${line}`);
const failures: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch((error) => console.error('cleanup:', error));
};
// Interrupted: still stop the service and remove the database (an embedded one runs until stopped).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

try {
  const python = ensurePythonEnv(log);
  const database = await freshDatabase();
  cleanups.unshift(() => database.close());
  log(`Fresh database: ${database.description}`);
  const proxy = await startDatabaseProxy(database.url);
  cleanups.unshift(() => proxy.close());
  // The fuzzing sends thousands of requests a minute with one key: its service sets a quota it
  // never reaches, so every answer still carries the RateLimit fields; 429 comes from the second
  // service below.
  const service = await startService(proxy.url, log, { env: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  cleanups.unshift(() => service.stop());
  if (service.demoKey === null) throw new Error('the service printed no demo key on a fresh database');
  const sql = connect(database.url, 2);
  cleanups.unshift(() => sql.end({ timeout: 5 }));

  const { keys, fundedAccountId, poorAccountId } = await prepareKeys(sql, service.url, service.demoKey);
  const ledgerBefore = await lastLedgerId(sql);
  const errorLogBefore = service.mark();

  log(`schemathesis: --max-examples ${settings.maxExamples} --seed ${settings.seed} --workers ${settings.workers}`);
  const fuzz = await runSchemathesis(python, service.url, keys, outputDir, settings);
  if (!fuzz.passed) failures.push('schemathesis reported failures (see above)');
  log(
    `schemathesis sent ${fuzz.requests} requests (${fuzz.records.length} ` +
      `checked responses) in ${fuzz.seconds.toFixed(1)} s`,
  );
  const serverErrors = service.errorsSince(errorLogBefore);
  if (serverErrors.length > 0)
    failures.push(`the service logged errors during the fuzzing:\n${serverErrors.slice(0, 20).join('\n')}`);

  const billing = await checkBilling(sql, fuzz.records, ledgerBefore);
  failures.push(...billing.problems.slice(0, 50).map((problem) => `billing: ${problem}`));
  log(
    `Billing invariants: every balance equals its ledger; ` +
      `${billing.freeResponses} answers 400/401/402/405/422/429 charged nothing; ` +
      `${billing.chargedResponses} answers 200/404 charged their price once (${billing.creditsCharged} credits); ` +
      `${billing.replayedResponses} replays charged nothing; ${billing.problems.length} problems`,
  );

  // It also allows one watch per account, for the 409 of the watch sequence.
  const limitedService = await startService(database.url, log, {
    env: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_QUOTA), WATCH_LIMIT: '1' },
  });
  cleanups.unshift(() => limitedService.stop());
  const sequences = await produceRetriesAndLimits(
    sql,
    service.url,
    limitedService.url,
    { key: keys.funded, accountId: fundedAccountId },
    { key: keys.poor, accountId: poorAccountId },
    log,
  );
  const watchSequences = await produceWatchSequences(
    sql,
    service.url,
    limitedService.url,
    { key: keys.funded, accountId: fundedAccountId },
    log,
  );
  await limitedService.stop();
  failures.push(...(await ledgerProblems(sql)).map((problem) => `after the retries and limits: ${problem}`));

  const faults = await produceServerErrors(
    sql,
    proxy,
    service.url,
    { key: keys.funded, accountId: fundedAccountId },
    log,
  );
  failures.push(...(await ledgerProblems(sql)).map((problem) => `after fault injection: ${problem}`));
  const limits = await produceLimitRefusals(sql, service.url, { key: keys.funded, accountId: fundedAccountId }, log);

  log('Python client: openapi-python-client generate, then every operation against the live service');
  const clientDir = pythonClientDir();
  cleanups.unshift(async () => fs.rmSync(clientDir, { recursive: true, force: true }));
  const generated = await generatePythonClient(python, clientDir);
  failures.push(...generated.problems);
  if (generated.problems.length === 0 && !(await runPythonClient(python, generated.packageDir, service.url, keys))) {
    failures.push('the generated Python client failed against the live service (see above)');
  }
  log('MCP: the Python SDK (mcp from PyPI) lists the tools of /mcp and calls them with the prepared keys');
  if (!(await runPythonMcpClient(python, service.url, keys))) {
    failures.push('the MCP Python SDK failed against /mcp (see above)');
  }

  const coverage = buildCoverage(
    fuzz.records,
    [...sequences, ...watchSequences, ...faults, ...limits],
    `schemathesis ${fuzz.passed ? 'passed' : 'FAILED'}: ${fuzz.requests} ` +
      `requests (${fuzz.records.length} checked responses) in ` +
      `${fuzz.seconds.toFixed(1)} s; --max-examples ${settings.maxExamples} ` +
      `--seed ${settings.seed} --workers ${settings.workers}.`,
  );
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(path.join(outputDir, 'coverage.md'), coverage.markdown);
  console.log(`\n${coverage.markdown}`);
  failures.push(...coverage.missing.map((missing) => `coverage: ${missing}`));
  log(
    `schemathesis: ${fuzz.requests} requests in ${fuzz.seconds.toFixed(1)} s ` +
      `(seed ${settings.seed}); coverage report: test-results/contract/coverage.md`,
  );
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await cleanUp();
}

log(`Finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failures.length > 0) {
  console.error(`\n[contract] FAILED:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exit(1);
}
log('The running service and openapi.yaml agree.');
