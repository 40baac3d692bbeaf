/**
 * Ingest against the limits of the machine it runs on (docs/ingest.md, issue 15):
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
import path from 'node:path';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import autocannon from 'autocannon';
import { Command } from 'commander';
import postgres from 'postgres';
import { projectRoot } from '../../src/config.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { connect } from '../../src/data/client.ts';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { inCrawlOrder, ORDERS, type Order } from '../../src/synthetic/crawl-order.ts';
import { generateDataset } from '../../src/synthetic/generator.ts';
import { take, writeDataset } from '../../src/synthetic/write-files.ts';
import { createBenchAccounts } from './accounts.ts';
import { type BenchServer, ensureDatabase, openBenchServer } from './database.ts';
import { keyedGets } from './load.ts';
import { sampleParameters } from './parameters.ts';
import { residentMb, startBenchService } from './service.ts';

const FOLDER = path.join(projectRoot, '.data', 'bench', 'ingest');
const RESULTS = path.join(projectRoot, 'bench', 'ingest.json');
const DOCS = path.join(projectRoot, 'docs', 'ingest.md');
const TODAY = new Date('2026-11-25T00:00:00Z');
const SEED = 7;
/** The observation's columns, as the limits' tables have them. */
const COLUMNS =
  'creative_id text COLLATE "C" NOT NULL, seen_on date NOT NULL, landing_domain text COLLATE "C" NOT NULL, ' +
  'advertiser_id text COLLATE "C" NOT NULL, advertiser_name text COLLATE "C" NOT NULL, country char(2) NOT NULL';

const program = new Command()
  .option('--observations <n>', 'observations in the file', Number, 1_000_000)
  .option('--orders <list>', 'orders to load, comma-separated', 'crawl,sorted')
  .option('--batch-size <n>', 'passed to npm run ingest (default: its own)')
  .option(
    '--increment-onto <n>',
    'also a daily increment (1M observations or n/5, crawl order, a quarter new) into a database of n',
    Number,
  )
  .option('--write-docs', 'write the results into bench/ingest.json and docs/ingest.md');
program.parse();
const options = program.opts<{
  observations: number;
  orders: string;
  batchSize?: string;
  incrementOnto?: number;
  writeDocs?: boolean;
}>();
const orders = options.orders.split(',') as Order[];
for (const order of orders) if (!ORDERS.includes(order)) throw new Error(`unknown order ${order}`);
const log = (line: string) => console.log(`[bench:ingest] ${line}`);

interface Limit {
  table: string;
  seconds: number;
  rowsPerSecond: number;
}

/** The service's advertiser lookups (c=8) on the database, idle and while the load ran. */
interface Lookups {
  idleP99Ms: number;
  duringP99Ms: number;
  idleRequestsPerSecond: number;
  duringRequestsPerSecond: number;
  /** Answers other than 200, socket errors and timeouts, while the load ran. */
  duringErrors: number;
}

interface Load {
  /** What was loaded into what. */
  label: string;
  lookups?: Lookups;
  /** Observations in the file. */
  observations: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number | null;
  summary: Record<string, unknown>;
  aggregatesExact: boolean;
}

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

async function physicalLimits(server: BenchServer, copyFile: string): Promise<Limit[]> {
  const url = await freshDatabase(server, 'alk_ingest_limits', false);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const limits: Limit[] = [];
  try {
    for (const [table, create] of [
      ['an unlogged table without indexes', `CREATE UNLOGGED TABLE copied (${COLUMNS})`],
      [
        'a logged table with only the primary key',
        `CREATE TABLE copied (${COLUMNS}, PRIMARY KEY (creative_id, seen_on, landing_domain))`,
      ],
    ]) {
      await sql.unsafe('DROP TABLE IF EXISTS copied');
      await sql.unsafe(create);
      await sql.unsafe('CHECKPOINT');
      const started = performance.now();
      const writable = await sql.unsafe('COPY copied FROM STDIN').writable();
      fs.createReadStream(copyFile, { highWaterMark: 1 << 20 }).pipe(writable);
      await finished(writable);
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
  let peak = null as number | null;
  const sampler = setInterval(() => {
    const mb = residentMb(child.pid!);
    if (mb !== null) peak = Math.max(peak ?? 0, mb);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
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
    summary,
    aggregatesExact: problems.length === 0,
  };
}

/** The increment: a million rows, or a fifth of a smaller base; a quarter of it new. */
const incrementOf = (base: number) => Math.min(1_000_000, Math.floor(base / 5));

/**
 * The daily increment: 1,000,000 observations in crawl order, a quarter of them new and the rest
 * already loaded, into a database of `base` observations. The base is the generator's first
 * `base` records, loaded once in-process into its own database and kept (a later run reuses it);
 * the increment goes into a copy of it, so every run starts from the same base. The increment's
 * known rows are every k-th record of the base, its new ones the generator's next records.
 */
async function dailyIncrement(server: BenchServer, base: number): Promise<Load> {
  const increment = incrementOf(base);
  const fresh = Math.floor(increment / 4);
  const size = (count: number) => Math.ceil(count * 1.15) + 5_000;
  const baseName = `alk_ingest_base_${base}`;
  const sql = connect(await ensureDatabase(server, baseName), 4);
  try {
    const [{ loaded }] = await sql<{ loaded: number }[]>`SELECT count(*)::integer AS loaded FROM observations`;
    if (loaded !== base) {
      log(`loading the base of ${base.toLocaleString('en-US')} observations (kept for later runs)`);
      const dataset = generateDataset({ seed: SEED, size: size(base), today: TODAY });
      await ingestObservations(sql, take(dataset.observations(), base), { today: TODAY });
      // As after any large load: statistics for the planner.
      await sql`ANALYZE`;
    }
  } finally {
    await sql.end();
  }

  const file = path.join(FOLDER, `increment-${increment}-onto-${base}.ndjson`);
  if (!fs.existsSync(file)) {
    const known = increment - fresh;
    const every = Math.floor(base / known);
    const generated = generateDataset({ seed: SEED, size: size(base + fresh), today: TODAY });
    function* records() {
      let n = 0;
      for (const record of generated.observations()) {
        if (n >= base + fresh) return;
        if (n >= base || (n % every === 0 && n / every < known)) yield record;
        n += 1;
      }
    }
    const fd = fs.openSync(`${file}.partial`, 'w');
    let text = '';
    for (const record of inCrawlOrder(records(), SEED)) {
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

  const admin = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe('DROP DATABASE IF EXISTS alk_ingest_increment');
    await admin.unsafe(`CREATE DATABASE alk_ingest_increment TEMPLATE ${baseName} STRATEGY FILE_COPY`);
  } finally {
    await admin.end();
  }
  const url = server.urlOf('alk_ingest_increment');
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
    return await loadEndToEnd(
      url,
      `a quarter new, crawl order, into ${base.toLocaleString('en-US')}`,
      file,
      increment,
      () => {
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
      },
    );
  } finally {
    await service.stop();
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

function report(results: {
  measuredAt: string;
  command: string;
  observations: number;
  batchSize: string;
  server: string;
  limits: Limit[];
  loads: Load[];
}): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const raw = results.limits[0].rowsPerSecond;
  const lines = [
    `${results.server}, batch size ${results.batchSize}, ` +
      `measured ${results.measuredAt.slice(0, 10)} ` +
      `(\`npm run bench:ingest -- ${results.command}\`).`,
    '',
    '| what | seconds | rows/s | / raw COPY | peak RSS (MB) | aggregates |',
    '| :-- | --: | --: | --: | --: | :-- |',
    ...results.limits.map(
      (limit) =>
        `| limit: COPY into ${limit.table} | ${limit.seconds.toFixed(1)} | ${n(limit.rowsPerSecond)} | ` +
        `${(limit.rowsPerSecond / raw).toFixed(2)} | | |`,
    ),
    ...results.loads.map(
      (load) =>
        `| \`npm run ingest\`, ${n(load.observations)} observations, ${load.label} | ${load.seconds.toFixed(1)} | ` +
        `${n(load.rowsPerSecond)} | ${(load.rowsPerSecond / raw).toFixed(2)} | ${load.peakRssMb?.toFixed(0) ?? ''} | ` +
        `${load.aggregatesExact ? 'exact' : '**wrong**'} |`,
    ),
  ];
  const beside = results.loads.filter((load) => load.lookups !== undefined);
  if (beside.length > 0)
    lines.push(
      '',
      'The service beside the load (advertiser lookups by name, 8 connections, the configuration `npm start` ships):',
      '',
      '| load | p99 idle (ms) | p99 during the load (ms) | during / idle | req/s idle | req/s during | errors |',
      '| :-- | --: | --: | --: | --: | --: | --: |',
      ...beside.map(({ label, lookups }) => {
        const l = lookups!;
        return (
          `| ${label} | ${l.idleP99Ms} | ${l.duringP99Ms} | ${(l.duringP99Ms / l.idleP99Ms).toFixed(2)} | ` +
          `${n(l.idleRequestsPerSecond)} | ${n(l.duringRequestsPerSecond)} | ${l.duringErrors} |`
        );
      }),
    );
  return lines.join('\n');
}

/** Replaces the measured section of docs/ingest.md, between its markers. */
function writeDocs(table: string): void {
  const text = fs.readFileSync(DOCS, 'utf8');
  const start = '<!-- bench:ingest start -->';
  const end = '<!-- bench:ingest end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`${DOCS} has no ${start} … ${end} section`);
  fs.writeFileSync(DOCS, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
}

/** Runs what the options ask for and reports it. */
async function main(): Promise<void> {
  fs.mkdirSync(FOLDER, { recursive: true });
  const server = await openBenchServer(process.env.DATABASE_URL, log);
  try {
    const files = Object.fromEntries(await Promise.all(orders.map(async (order) => [order, await dataset(order)])));
    const limits = await physicalLimits(server, await copyText(files.crawl ?? files[orders[0]]));
    const loads: Load[] = [];
    for (const order of orders) {
      const url = await freshDatabase(server, `alk_ingest_${order}`, true);
      loads.push(await loadEndToEnd(url, `${order} order, fresh database`, files[order], options.observations));
    }
    if (options.incrementOnto !== undefined) loads.push(await dailyIncrement(server, options.incrementOnto));
    const results = {
      measuredAt: new Date().toISOString(),
      command: process.argv
        .slice(2)
        .filter((arg) => arg !== '--write-docs')
        .join(' '),
      observations: options.observations,
      batchSize: options.batchSize ?? 'default',
      server: server.description,
      limits,
      loads,
    };
    console.log(report(results));
    if (options.writeDocs) {
      fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
      writeDocs(report(results));
      log(`wrote ${path.relative(projectRoot, RESULTS)} and ${path.relative(projectRoot, DOCS)}`);
    }
  } finally {
    await server.close();
  }
}

await main();
