/**
 * Ingest against the limits of the machine it runs on (docs/ingest.md):
 * `npm run bench:ingest [-- --observations 1000000 --orders crawl,sorted --write-docs]`.
 *
 * The synthetic dataset is written once per size and order (`generate-data`, cached under
 * .data/bench/ingest). In one run, on the benchmark's PostgreSQL (DATABASE_URL's server, else
 * its embedded cluster):
 * - the physical limits: the crawl-order file's rows, already as COPY text, copied into an
 *   unindexed UNLOGGED table of the same columns, and into a logged table with only the
 *   observation's primary key;
 * - each order loaded end to end by `npm run ingest` as an operator runs it (a process of its
 *   own, NDJSON file, fresh database), with its peak RSS, and checkAggregates afterwards;
 * - with `--increment-onto N`, a daily increment loaded the same way into a database of N
 *   observations (see dailyIncrement).
 * Every figure is given beside the limits, as a ratio.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import autocannon from 'autocannon';
import { Command } from 'commander';
import postgres from 'postgres';
import { projectRoot } from '../../src/config.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { connect } from '../../src/data/client.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { inCrawlOrder, ORDERS, type Order } from '../../src/synthetic/crawl-order.ts';
import { writeDataset } from '../../src/synthetic/write-files.ts';
import { createBenchAccounts } from './accounts.ts';
import { baseDatabase, copyOf, dropCopy, INCREMENT_SEED, incrementOf, incrementRecords } from './daily-increment.ts';
import { type BenchServer, ensureDatabase, openBenchServer } from './database.ts';
import {
  COPIED_COLUMNS,
  copyFileInto,
  type FloorRun,
  writeEndStateFloor,
  writeIncrementFloor,
} from './ingest-floor.ts';
import { type Floor, type IngestResults, ingestReport, type Limit, type Load, type Lookups } from './ingest-report.ts';
import { keyedGets } from './load.ts';
import { sampleParameters } from './parameters.ts';
import { cpuSeconds, residentMb, startBenchService } from './service.ts';

const FOLDER = path.join(projectRoot, '.data', 'bench', 'ingest');
const DOCS = path.join(projectRoot, 'docs', 'ingest.md');
const TODAY = new Date('2026-11-25T00:00:00Z');
const SEED = 7;
const program = new Command()
  .option('--observations <n>', 'observations in the file', Number, 1_000_000)
  .option('--orders <list>', 'orders to load, comma-separated', 'crawl,sorted')
  .option('--batch-size <n>', 'passed to npm run ingest (default: its own)')
  .option(
    '--increment-onto <n>',
    'also a daily increment (1M observations or n/5, crawl order, a quarter new) into a database of n',
    Number,
  )
  .option('--write-docs', 'write the results into bench/ingest.json and docs/ingest.md')
  .option('--docs-only', 'measure nothing: rewrite the section of docs/ingest.md from its saved results');
program.parse();
const options = program.opts<{
  observations: number;
  orders: string;
  batchSize?: string;
  incrementOnto?: number;
  writeDocs?: boolean;
  docsOnly?: boolean;
}>();
const orders = options.orders.split(',') as Order[];
for (const order of orders) if (!ORDERS.includes(order)) throw new Error(`unknown order ${order}`);
const log = (line: string) => console.log(`[bench:ingest] ${line}`);
/** A run with the daily increment has its own results and its own section of docs/ingest.md. */
const RUN = options.incrementOnto === undefined ? 'ingest' : 'ingest-increment';
const RESULTS = path.join(projectRoot, 'bench', `${RUN}.json`);

async function dataset(order: Order): Promise<string> {
  const file = path.join(FOLDER, `observations-${options.observations}-${order}.ndjson`);
  if (!fs.existsSync(file)) {
    log(`writing ${path.relative(projectRoot, file)}`);
    await writeDataset({
      observations: options.observations,
      seed: SEED,
      today: TODAY,
      order,
      out: `${file}.partial`,
      crawls: null,
      labels: null,
    });
    fs.renameSync(`${file}.partial`, file);
  }
  return file;
}

/**
 * The file's rows as COPY text of the observation's columns, written once beside it. Built here
 * and not by ingest, so that the limits below are PostgreSQL's work alone.
 */
async function copyText(file: string): Promise<string> {
  const out = file.replace(/\.ndjson$/, '.copy');
  if (fs.existsSync(out)) return out;
  const stream = fs.createWriteStream(`${out}.partial`);
  let chunk = '';
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    const r = JSON.parse(line);
    chunk += `${r.creative_id}\t${r.seen_on}\t${rootDomain(r.landing_url)}\t${r.advertiser_id}`;
    chunk += `\t${r.advertiser_name}\t${r.country}\n`;
    if (chunk.length > 1 << 20) {
      if (!stream.write(chunk)) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end(chunk);
  await finished(stream);
  fs.renameSync(`${out}.partial`, out);
  return out;
}

/**
 * The floor of a load's PostgreSQL work, in a fresh migrated database of its own
 * (scripts/bench/ingest-floor.ts), checked like every load.
 */
async function endStateFloor(server: BenchServer, copyFile: string): Promise<Floor> {
  const url = await freshDatabase(server, 'alk_ingest_floor', true);
  return floorOn(url, 'the floor', options.observations, (sql) =>
    writeEndStateFloor(sql, copyFile, (pid) => (isPostgres(pid) ? cpuSeconds(pid) : null)),
  );
}

/** Runs a floor on `url` over one connection, then checks the aggregates it wrote. */
async function floorOn(
  url: string,
  what: string,
  rows: number,
  write: (sql: postgres.Sql) => Promise<FloorRun>,
): Promise<Floor> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let run: FloorRun;
  try {
    run = await write(sql);
  } finally {
    await sql.end();
  }
  const check = connect(url, 1);
  const problems = await checkAggregates(check);
  await check.end();
  log(`${what}: ${run.seconds.toFixed(1)} s, aggregates ${problems.length ? 'WRONG' : 'exact'}`);
  return {
    rows,
    seconds: run.seconds,
    rowsPerSecond: rows / run.seconds,
    backendCpuSeconds: run.backendCpuSeconds,
    aggregatesExact: problems.length === 0,
  };
}

async function physicalLimits(server: BenchServer, copyFile: string): Promise<Limit[]> {
  const url = await freshDatabase(server, 'alk_ingest_limits', false);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const limits: Limit[] = [];
  try {
    for (const [table, create] of [
      ['an unlogged table without indexes', `CREATE UNLOGGED TABLE copied (${COPIED_COLUMNS})`],
      [
        'a logged table with only the primary key',
        `CREATE TABLE copied (${COPIED_COLUMNS}, PRIMARY KEY (creative_id, seen_on, landing_domain))`,
      ],
    ]) {
      await sql.unsafe('DROP TABLE IF EXISTS copied');
      await sql.unsafe(create);
      await sql.unsafe('CHECKPOINT');
      const started = performance.now();
      await copyFileInto(sql, 'copied', copyFile);
      const seconds = (performance.now() - started) / 1000;
      limits.push({ table, seconds, rowsPerSecond: options.observations / seconds });
      log(`COPY into ${table}: ${seconds.toFixed(1)} s`);
    }
  } finally {
    await sql.end();
  }
  return limits;
}

async function loadEndToEnd(
  url: string,
  label: string,
  file: string,
  observations: number,
  beside?: () => { done(): Promise<Lookups> },
): Promise<Load> {
  const batch = options.batchSize === undefined ? [] : ['--batch-size', options.batchSize];
  const args = ['--import', 'tsx', 'src/cli/ingest.ts', 'observations', file, '--json', '--no-progress', ...batch];
  log(`loading ${path.relative(projectRoot, file)}`);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data));
  const lookups = beside?.();
  // The service beside the load has backends in the same database: theirs would be counted too.
  const backends = beside === undefined ? sampleBackends(url) : undefined;
  let peak = null as number | null;
  let ingestCpuSeconds = null as number | null;
  const sampler = setInterval(() => {
    const mb = residentMb(child.pid!);
    if (mb !== null) peak = Math.max(peak ?? 0, mb);
    ingestCpuSeconds = cpuSeconds(child.pid!) ?? ingestCpuSeconds;
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const backendCpuSeconds = (await backends?.stop()) ?? null;
  const measured = await lookups?.done();
  if (code !== 0) throw new Error(`npm run ingest exited ${code}`);
  const summary = JSON.parse(stdout);
  const sql = connect(url, 1);
  const problems = await checkAggregates(sql);
  await sql.end();
  log(
    `${label}: ${seconds.toFixed(1)} s, peak RSS ${peak?.toFixed(0)} MB, ` +
      `aggregates ${problems.length ? 'WRONG' : 'exact'}`,
  );
  return {
    label,
    ...(measured && { lookups: measured }),
    observations,
    seconds,
    rowsPerSecond: observations / seconds,
    peakRssMb: peak,
    ingestCpuSeconds,
    backendCpuSeconds,
    summary,
    aggregatesExact: problems.length === 0,
  };
}

/**
 * CPU of the database's backends but the sampler's own, sampled every 200 ms while a load runs:
 * the most each was seen to use, summed (what a backend uses after its last sample is missed).
 * Null when none of them can be read from here (the server runs on another machine).
 */
function sampleBackends(url: string): { stop(): Promise<number | null> } {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const used = new Map<number, number>();
  const sample = async () => {
    const backends = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    // A backend that ended since the query is read no more; it keeps what it was last seen using.
    for (const { pid } of backends) {
      const cpu = isPostgres(pid) ? cpuSeconds(pid) : null;
      if (cpu !== null) used.set(pid, Math.max(used.get(pid) ?? 0, cpu));
    }
  };
  let sampling = sample();
  const timer = setInterval(() => {
    sampling = sampling.then(sample, sample);
  }, 200);
  return {
    async stop() {
      clearInterval(timer);
      await sampling.catch(() => {});
      await sql.end();
      return used.size === 0 ? null : [...used.values()].reduce((sum, cpu) => sum + cpu, 0);
    },
  };
}

/** A process of this machine's PostgreSQL: a server elsewhere has its own process ids. */
function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}

/**
 * The daily increment (scripts/bench/daily-increment.ts) into a copy of its base: its floor, then
 * the load alone, then into another copy with the service's lookups beside it: the lookups' p99
 * against idle, and the load's rate beside the service against alone. The increment is written
 * once to a file, in crawl order.
 */
async function dailyIncrement(server: BenchServer, base: number): Promise<{ floor: Floor; loads: Load[] }> {
  const increment = incrementOf(base);
  const baseName = await baseDatabase(server, base, log);

  const file = path.join(FOLDER, `increment-${increment}-onto-${base}.ndjson`);
  if (!fs.existsSync(file)) {
    const fd = fs.openSync(`${file}.partial`, 'w');
    let text = '';
    for (const record of inCrawlOrder(incrementRecords(base), INCREMENT_SEED)) {
      text += `${JSON.stringify(record)}\n`;
      if (text.length >= 1 << 20) {
        fs.writeSync(fd, text);
        text = '';
      }
    }
    fs.writeSync(fd, text);
    fs.closeSync(fd);
    fs.renameSync(`${file}.partial`, file);
  }

  const copyFile = await copyText(file);
  const floor = await floorOn(
    await copyOf(server, baseName, 'alk_ingest_increment'),
    'the increment floor',
    increment,
    (sql) => writeIncrementFloor(sql, copyFile, (pid) => (isPostgres(pid) ? cpuSeconds(pid) : null)),
  );
  await dropCopy(server, 'alk_ingest_increment');

  const label = `a quarter new, crawl order, into ${base.toLocaleString('en-US')}`;
  // Alone, into a copy of its own: the rate with no service on the machine.
  const alone = await loadEndToEnd(
    await copyOf(server, baseName, 'alk_ingest_increment'),
    `${label}, alone`,
    file,
    increment,
  );
  await dropCopy(server, 'alk_ingest_increment');
  const url = await copyOf(server, baseName, 'alk_ingest_increment');
  const setup = connect(url, 4);
  const keys = (await createBenchAccounts(setup, { count: 20, credits: 1_000_000_000, tag: 'ingest' })).map(
    (account) => account.key,
  );
  const names = (await sampleParameters(setup, 1_000)).names;
  await setup.end();
  const service = await startBenchService(url, '/dev/null');
  try {
    const idle = await lookupCell(service.url, keys, names, IDLE_SECONDS).result;
    log(`lookups, idle: p99 ${idle.p99} ms at ${idle.requestsPerSecond.toFixed(0)} req/s`);
    const beside = await loadEndToEnd(url, `${label}, the service under load beside it`, file, increment, () => {
      const during = lookupCell(service.url, keys, names);
      return {
        async done() {
          during.stop();
          const result = await during.result;
          return {
            idleP99Ms: idle.p99,
            duringP99Ms: result.p99,
            idleRequestsPerSecond: idle.requestsPerSecond,
            duringRequestsPerSecond: result.requestsPerSecond,
            duringErrors: result.errors,
          };
        },
      };
    });
    return {
      floor,
      loads: [
        { ...alone, increment: true },
        { ...beside, lookups: { ...beside.lookups!, aloneRowsPerSecond: alone.rowsPerSecond } },
      ],
    };
  } finally {
    await service.stop();
    await dropCopy(server, 'alk_ingest_increment');
  }
}

const IDLE_SECONDS = 15;

/**
 * Advertiser lookups by name on 8 connections, each key in turn: for `seconds`, or until stopped.
 * Every answer but a 200 counts as an error.
 */
function lookupCell(
  url: string,
  keys: string[],
  names: string[],
  seconds = 3_600,
): { stop(): void; result: Promise<{ p99: number; requestsPerSecond: number; errors: number }> } {
  let instance: autocannon.Instance | undefined;
  const result = new Promise<{ p99: number; requestsPerSecond: number; errors: number }>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        connections: 8,
        duration: seconds,
        requests: keyedGets(keys, (i) => `/api/v1/advertiser?name=${encodeURIComponent(names[i % names.length])}`),
      },
      (error, done) => {
        if (error) reject(error);
        else
          resolve({
            p99: done.latency.p99,
            requestsPerSecond: done.requests.average,
            errors: done.non2xx + done.errors + done.timeouts,
          });
      },
    );
  });
  return { stop: () => instance?.stop(), result };
}

async function freshDatabase(server: BenchServer, name: string, migrated: boolean): Promise<string> {
  const admin = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
  if (migrated) return ensureDatabase(server, name);
  const again = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  try {
    await again.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await again.end();
  }
  return server.urlOf(name);
}

/** Replaces the measured section of docs/ingest.md, between its markers. */
function writeDocs(table: string): void {
  const text = fs.readFileSync(DOCS, 'utf8');
  const start = `<!-- bench:${RUN} start -->`;
  const end = `<!-- bench:${RUN} end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`${DOCS} has no ${start} … ${end} section`);
  fs.writeFileSync(DOCS, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
}

/** Runs what the options ask for and reports it. */
async function main(): Promise<void> {
  if (options.docsOnly) {
    writeDocs(ingestReport(JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as IngestResults));
    log(`wrote ${path.relative(projectRoot, DOCS)} from ${path.relative(projectRoot, RESULTS)}`);
    return;
  }
  fs.mkdirSync(FOLDER, { recursive: true });
  const server = await openBenchServer(process.env.DATABASE_URL, log);
  try {
    const files = Object.fromEntries(await Promise.all(orders.map(async (order) => [order, await dataset(order)])));
    const copyFile = await copyText(files.crawl ?? files[orders[0]]);
    const limits = await physicalLimits(server, copyFile);
    const floor = await endStateFloor(server, copyFile);
    const loads: Load[] = [];
    for (const order of orders) {
      const url = await freshDatabase(server, `alk_ingest_${order}`, true);
      const load = await loadEndToEnd(url, `${order} order, fresh database`, files[order], options.observations);
      loads.push({ ...load, fresh: true });
    }
    const increment =
      options.incrementOnto === undefined ? undefined : await dailyIncrement(server, options.incrementOnto);
    if (increment !== undefined) loads.push(...increment.loads);
    const results: IngestResults = {
      measuredAt: new Date().toISOString(),
      command: process.argv
        .slice(2)
        .filter((arg) => arg !== '--write-docs')
        .join(' '),
      observations: options.observations,
      batchSize: options.batchSize ?? 'default',
      server: server.description,
      cores: os.availableParallelism(),
      limits,
      floor,
      ...(increment && { incrementFloor: increment.floor }),
      loads,
    };
    console.log(ingestReport(results));
    if (options.writeDocs) {
      fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
      writeDocs(ingestReport(results));
      log(`wrote ${path.relative(projectRoot, RESULTS)} and ${path.relative(projectRoot, DOCS)}`);
    }
  } finally {
    await server.close();
  }
}

await main();
