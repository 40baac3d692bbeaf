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
 *   own, NDJSON file, fresh database), with its peak RSS, and checkAggregates afterwards.
 * Every figure is given beside the limits, as a ratio.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import postgres from 'postgres';
import { projectRoot } from '../../src/config.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { connect } from '../../src/data/client.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { ORDERS, type Order } from '../../src/synthetic/crawl-order.ts';
import { writeDataset } from '../../src/synthetic/write-files.ts';
import { type BenchServer, ensureDatabase, openBenchServer } from './database.ts';
import { residentMb } from './service.ts';

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
  .option('--write-docs', 'write the results into bench/ingest.json and docs/ingest.md');
program.parse();
const options = program.opts<{ observations: number; orders: string; batchSize?: string; writeDocs?: boolean }>();
const orders = options.orders.split(',') as Order[];
for (const order of orders) if (!ORDERS.includes(order)) throw new Error(`unknown order ${order}`);
const log = (line: string) => console.log(`[bench:ingest] ${line}`);

interface Limit {
  table: string;
  seconds: number;
  rowsPerSecond: number;
}

interface Load {
  order: Order;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number | null;
  summary: Record<string, unknown>;
  aggregatesExact: boolean;
}

fs.mkdirSync(FOLDER, { recursive: true });
const server = await openBenchServer(process.env.DATABASE_URL, log);
try {
  const files = Object.fromEntries(await Promise.all(orders.map(async (order) => [order, await dataset(order)])));
  const limits = await physicalLimits(server, await copyText(files.crawl ?? files[orders[0]]));
  const loads: Load[] = [];
  for (const order of orders) loads.push(await loadEndToEnd(server, order, files[order]));
  const results = {
    measuredAt: new Date().toISOString(),
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

async function loadEndToEnd(server: BenchServer, order: Order, file: string): Promise<Load> {
  const url = await freshDatabase(server, `alk_ingest_${order}`, true);
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
  let peak = null as number | null;
  const sampler = setInterval(() => {
    const mb = residentMb(child.pid!);
    if (mb !== null) peak = Math.max(peak ?? 0, mb);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`npm run ingest exited ${code}`);
  const summary = JSON.parse(stdout);
  const sql = connect(url, 1);
  const problems = await checkAggregates(sql);
  await sql.end();
  log(
    `${order}: ${seconds.toFixed(1)} s, peak RSS ${peak?.toFixed(0)} MB, ` +
      `aggregates ${problems.length ? 'WRONG' : 'exact'}`,
  );
  return {
    order,
    seconds,
    rowsPerSecond: options.observations / seconds,
    peakRssMb: peak,
    summary,
    aggregatesExact: problems.length === 0,
  };
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
  observations: number;
  batchSize: string;
  server: string;
  limits: Limit[];
  loads: Load[];
}): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const raw = results.limits[0].rowsPerSecond;
  const lines = [
    `${n(results.observations)} observations, ${results.server}, batch size ${results.batchSize}, ` +
      `measured ${results.measuredAt.slice(0, 10)} ` +
      `(\`npm run bench:ingest -- --observations ${results.observations}\`).`,
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
        `| \`npm run ingest\`, ${load.order} order, fresh database | ${load.seconds.toFixed(1)} | ` +
        `${n(load.rowsPerSecond)} | ${(load.rowsPerSecond / raw).toFixed(2)} | ${load.peakRssMb?.toFixed(0) ?? ''} | ` +
        `${load.aggregatesExact ? 'exact' : '**wrong**'} |`,
    ),
  ];
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
