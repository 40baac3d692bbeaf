/**
 * `npm run bench:single-caller [-- --base 1000000 --calls 2000 --rounds 3]`: where one caller's
 * time goes (docs/benchmarks.md, "Where the request path spends its time"). One integrator's
 * script, one call at a time on one kept-alive connection, asks the service for advertisers by
 * name; between its calls, the same work runs as direct SQL in this process (the debit statement,
 * then the lookup, each timed). The service's request log (at `info`, as shipped) gives the time
 * each answer spent inside the service. So the gap between the service and direct SQL splits into
 * the time outside the service's logged duration (the HTTP hop: both processes woken, the request
 * parsed and routed, the answer written and read; bare Hono, called the same way, gives the least
 * that hop costs here) and the time inside it beyond the SQL.
 * Writes bench/single-caller.json.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { DeliveryMarks } from '../../src/billing/delivery-marks.ts';
import { projectRoot } from '../../src/config.ts';
import { debitCalls } from '../../src/data/billing.ts';
import { connect } from '../../src/data/client.ts';
import { getAdvertiserSummary } from '../../src/data/lookups.ts';
import { createBenchAccounts } from './accounts.ts';
import { baseDatabase, copyOf, dropCopy } from './daily-increment.ts';
import { openBenchServer } from './database.ts';
import { sampleParameters } from './parameters.ts';
import { BENCH_RATE_LIMIT, startBareHono, startBenchService } from './service.ts';
import { percentile, round } from './stats.ts';

const program = new Command('bench:single-caller')
  .option('--base <n>', 'observations in the dataset', Number, 1_000_000)
  .option('--calls <n>', 'calls measured per round, each way', Number, 2_000)
  .option('--rounds <n>', 'rounds', Number, 3)
  .parse();
const options = program.opts<{ base: number; calls: number; rounds: number }>();
const RESULTS = path.join(projectRoot, 'bench', 'single-caller.json');
const RUN_ID = '00000000-0000-4000-8000-00000000051c';
const log = (line: string) => console.error(`bench:single-caller: ${line}`);

/** The `q`th percentile of `values` in ms, to the µs. */
const p = (values: readonly number[], q: number) => round(percentile(values, q) ?? Number.NaN, 3);

async function main() {
  const server = await openBenchServer(process.env.DATABASE_URL, log);
  const template = await baseDatabase(server, options.base, log);
  await dropCopy(server, 'alk_single_caller');
  const url = await copyOf(server, template, 'alk_single_caller');
  const sql = connect(url, 10);
  const requestLog = path.join(os.tmpdir(), `single-caller-${process.pid}.log`);
  const service = await startBenchService(url, requestLog);
  const bare = await startBareHono();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bareAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const marks = new DeliveryMarks(sql);
  try {
    const accounts = await createBenchAccounts(sql, { count: 4, credits: 1_000_000_000, tag: 'single' });
    const names = (await sampleParameters(sql, 1_000)).names;
    const get = (target: string, via: http.Agent, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        http
          .get(target, { agent: via, headers }, (response) => {
            if (response.statusCode !== 200 && response.statusCode !== 404)
              reject(new Error(`the service answered ${response.statusCode}`));
            response.resume();
            response.on('end', () => resolve(performance.now() - started));
          })
          .on('error', reject);
      });
    const viaService = (i: number) =>
      get(`${service.url}/api/v1/advertiser?name=${encodeURIComponent(names[i % names.length])}`, agent, {
        authorization: `Bearer ${accounts[i % accounts.length].key}`,
      });
    // The least an HTTP round trip costs here: bare Hono, the same client, the same headers.
    const viaBareHono = (i: number) =>
      get(`${bare.url}/api/v1/advertiser?name=${encodeURIComponent(names[i % names.length])}`, bareAgent, {
        authorization: `Bearer ${accounts[i % accounts.length].key}`,
      });
    const direct = async (i: number) => {
      const account = accounts[i % accounts.length];
      const started = performance.now();
      const [result] = await debitCalls(sql, [
        {
          keyHash: account.keyHash,
          price: 1,
          endpoint: 'getAdvertiserSummary',
          requestId: `single-${i}-${randomUUID()}`,
          callId: randomUUID(),
          runId: RUN_ID,
          rateLimit: BENCH_RATE_LIMIT,
        },
      ]);
      const debited = performance.now();
      await getAdvertiserSummary(sql, names[i % names.length]);
      const done = performance.now();
      if (result.outcome === 'debited' && result.chargeId !== null) marks.delivered(result.chargeId);
      return { total: done - started, debit: debited - started, lookup: done - debited };
    };
    const rounds = [];
    for (let index = 0; index < options.rounds; index += 1) {
      for (let i = 0; i < 300; i += 1) {
        await viaService(i);
        await viaBareHono(i);
        await direct(i);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const from = fs.statSync(requestLog).size;
      const service: number[] = [];
      const bareHono: number[] = [];
      const [directly, debits, lookups]: number[][] = [[], [], []];
      for (let i = 0; i < options.calls; i += 1) {
        service.push(await viaService(i));
        bareHono.push(await viaBareHono(i));
        const sqlOnly = await direct(i);
        directly.push(sqlOnly.total);
        debits.push(sqlOnly.debit);
        lookups.push(sqlOnly.lookup);
      }
      // The log is written in blocks at least once a second.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const logged = fs
        .readFileSync(requestLog, 'utf8')
        .slice(from)
        .split('\n')
        .filter((line) => line.includes('"operation":"getAdvertiserSummary"'))
        .map((line) => (JSON.parse(line) as { duration_ms: number }).duration_ms);
      const figures = {
        serviceP50Ms: p(service, 50),
        serviceP99Ms: p(service, 99),
        loggedP50Ms: p(logged, 50),
        loggedAnswers: logged.length,
        bareHonoP50Ms: p(bareHono, 50),
        directP50Ms: p(directly, 50),
        directP99Ms: p(directly, 99),
        debitP50Ms: p(debits, 50),
        lookupP50Ms: p(lookups, 50),
      };
      const split = {
        ...figures,
        addedP50Ms: round(figures.serviceP50Ms - figures.directP50Ms, 3),
        outsideTheServiceP50Ms: round(figures.serviceP50Ms - figures.loggedP50Ms, 3),
        outsideBeyondBareHonoP50Ms: round(figures.serviceP50Ms - figures.loggedP50Ms - figures.bareHonoP50Ms, 3),
        insideBeyondSqlP50Ms: round(figures.loggedP50Ms - figures.directP50Ms, 3),
      };
      log(`round ${index + 1}: ${JSON.stringify(split)}`);
      rounds.push(split);
    }
    const results = { measuredAt: new Date().toISOString(), base: options.base, calls: options.calls, rounds };
    fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(projectRoot, RESULTS)}`);
  } finally {
    await marks.flush();
    agent.destroy();
    bareAgent.destroy();
    await bare.stop();
    await service.stop();
    await sql.end();
    fs.rmSync(requestLog, { force: true });
    await dropCopy(server, 'alk_single_caller');
    await server.close();
  }
}

await main();
