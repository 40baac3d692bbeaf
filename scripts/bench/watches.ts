/**
 * Brand watch against the limits of the machine it runs on (docs/watches.md, "Benchmark"):
 * `npm run bench:watches [-- --base 1000000 --watches 100000 --deliveries 10000]`.
 *
 * (a) Matching and queueing: the daily increment of scripts/bench/daily-increment.ts (1M or a
 * fifth of the base, a quarter of it new, crawl order) loaded through the real ingest into copies
 * of its base, without watches and with `--watches` watches over as many accounts (half domain
 * watches, half advertiser watches; a tenth of each names something the increment changes),
 * alternately, twice each: the ratio of the load times is what matching and queueing add.
 * (b) Delivery: `--deliveries` deliveries, one per account, posted by the service (its own
 * process, as `npm start` runs it) to a local HTTPS receiver (a process of its own): the rate,
 * and the lookups' p99 while it delivers against idle. Then the same number again with no lookups:
 * the machine's CPU per post (and the service's and the receiver's shares of it), the share of
 * the machine 500 posts a second take, and so the least
 * the lookups' latency grows when they keep every core busy (1 / (1 - share)).
 * The load average is printed beside the figures: the machine may be shared.
 */
import { execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { projectRoot } from '../../src/config.ts';
import { connect } from '../../src/data/client.ts';
import { queueWatchNews } from '../../src/data/watch-news.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { inCrawlOrder } from '../../src/synthetic/crawl-order.ts';
import { createBenchAccounts } from './accounts.ts';
import {
  baseDatabase,
  copyOf,
  dropCopy,
  INCREMENT_SEED,
  INCREMENT_TODAY,
  incrementRecords,
} from './daily-increment.ts';
import { type BenchServer, openBenchServer } from './database.ts';
import { keyedGets } from './load.ts';
import { sampleParameters } from './parameters.ts';
import { cpuSeconds, startServerProcess } from './service.ts';

const RESULTS = path.join(projectRoot, 'bench', 'watches.json');
const program = new Command()
  .option('--base <n>', 'observations in the base', Number, 1_000_000)
  .option('--watches <n>', 'watches, each of its own account', Number, 100_000)
  .option('--deliveries <n>', 'deliveries posted in (b)', Number, 10_000)
  .option('--only <part>', 'a or b')
  .option('--write', 'write the results into bench/watches.json');
program.parse();
const options = program.opts<{ base: number; watches: number; deliveries: number; only?: string; write?: boolean }>();
const log = (line: string) => process.stderr.write(`bench:watches: ${line}\n`);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** `count` accounts with one watch each: half domains, half names; a tenth of each hit by `records`. */
async function addWatches(url: string, count: number, records: Record<string, unknown>[]): Promise<void> {
  const sql = connect(url, 2);
  try {
    const domains = [...new Set(records.map((r) => new URL(String(r.landing_url)).hostname.replace(/^www\./, '')))];
    const names = [...new Set(records.map((r) => String(r.advertiser_name)))];
    const half = Math.floor(count / 2);
    const hit = Math.floor(half / 10);
    const targets = [
      ...Array.from({ length: half }, (_, n) => ['domain', n < hit ? domains[n % domains.length] : `quiet${n}.com`]),
      ...Array.from({ length: count - half }, (_, n) => [
        'advertiser',
        n < hit ? names[n % names.length] : `Quiet Brand ${n}`,
      ]),
    ];
    await sql`
      WITH t AS (
        SELECT ordinality AS n, value ->> 0 AS kind, value ->> 1 AS target
        FROM jsonb_array_elements(${JSON.stringify(targets)}::text::jsonb) WITH ORDINALITY
      ), a AS (
        INSERT INTO accounts (email) SELECT 'watch-bench-' || n || '@bench.invalid' FROM t RETURNING id
      ), numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM a)
      INSERT INTO watches (account_id, kind, target)
      SELECT numbered.id, t.kind, t.target FROM t JOIN numbered USING (n)
      ON CONFLICT DO NOTHING`;
    await sql`ANALYZE watches`;
  } finally {
    await sql.end();
  }
}

async function timedLoad(
  url: string,
  records: Record<string, unknown>[],
): Promise<{ seconds: number; events: number }> {
  const sql = connect(url, 4);
  try {
    const started = performance.now();
    await ingestObservations(sql, records, { today: INCREMENT_TODAY });
    const seconds = (performance.now() - started) / 1000;
    const [{ events }] = await sql<{ events: number }[]>`SELECT count(*)::integer AS events FROM watch_events`;
    return { seconds, events };
  } finally {
    await sql.end();
  }
}

async function partA(server: BenchServer) {
  const template = await baseDatabase(server, options.base, log);
  const records = [...inCrawlOrder(incrementRecords(options.base), INCREMENT_SEED)];
  log(`increment: ${records.length.toLocaleString('en-US')} observations; ${options.watches} watches`);
  const runs: { watches: boolean; seconds: number; events: number; load: string }[] = [];
  for (const watches of [false, true, false, true]) {
    const url = await copyOf(server, template, 'alk_watches_run');
    if (watches) await addWatches(url, options.watches, records);
    const result = await timedLoad(url, records);
    runs.push({ watches, ...result, load: load() });
    log(
      `${watches ? 'with' : 'without'} watches: ${result.seconds.toFixed(1)} s, ${result.events} events ` +
        `(load ${load()})`,
    );
  }
  await dropCopy(server, 'alk_watches_run');
  const mean = (w: boolean) => {
    const of = runs.filter((r) => r.watches === w);
    return of.reduce((sum, r) => sum + r.seconds, 0) / of.length;
  };
  return {
    base: options.base,
    increment: records.length,
    watches: options.watches,
    runs,
    ratio: Number((mean(true) / mean(false)).toFixed(3)),
  };
}

/**
 * CPU seconds the whole machine spent busy so far (every process: /proc/stat's first line, in
 * clock ticks of 10 ms, less idle and I/O wait).
 */
function machineBusySeconds(): number {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** The local HTTPS receiver (scripts/bench/webhook-receiver.ts), a process of its own. */
async function receiver(dir: string) {
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  const child = fork(path.join(projectRoot, 'scripts', 'bench', 'webhook-receiver.ts'), [key, cert], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  return {
    url: `https://127.0.0.1:${port}/hooks/watch`,
    cert,
    pid: child.pid!,
    async posts(): Promise<number> {
      child.send('count');
      const [{ posts }] = (await once(child, 'message')) as [{ posts: number }];
      return posts;
    },
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

function lookups(url: string, keys: string[], names: string[], seconds: number) {
  let instance: autocannon.Instance | undefined;
  const result = new Promise<{ p99: number; requestsPerSecond: number }>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        connections: 8,
        duration: seconds,
        requests: keyedGets(keys, (i) => `/api/v1/advertiser?name=${encodeURIComponent(names[i % names.length])}`),
      },
      (error, done) =>
        error ? reject(error) : resolve({ p99: done.latency.p99, requestsPerSecond: done.requests.average }),
    );
  });
  return { stop: () => instance?.stop(), result };
}

async function partB(server: BenchServer) {
  const template = await baseDatabase(server, Math.min(options.base, 200_000), log);
  const url = await copyOf(server, template, 'alk_watches_delivery');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-bench-'));
  const hooks = await receiver(dir);
  const sql = connect(url, 4);
  const keys = (await createBenchAccounts(sql, { count: 20, credits: 1_000_000_000, tag: 'watches' })).map(
    (a) => a.key,
  );
  const names = (await sampleParameters(sql, 1_000)).names;
  const count = options.deliveries;
  await sql`
    WITH a AS (
      INSERT INTO accounts (email, balance)
      SELECT 'delivery-bench-' || n || '@bench.invalid', 1000 FROM generate_series(1, ${count}) n RETURNING id
    ), h AS (
      INSERT INTO alert_webhooks (account_id, url, secret) SELECT id, ${hooks.url}, 'whsec_bench' FROM a
    )
    INSERT INTO watches (account_id, kind, target) SELECT id, 'domain', 'bench' || id || '.com' FROM a`;
  const service = await startServerProcess('scripts/bench/server.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DEMO_DATA: 'off',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'info',
    DATABASE_URL: url,
    BENCH_REQUEST_LOG: '/dev/null',
    ALERT_WEBHOOK_PRIVATE_ADDRESSES: 'on',
    NODE_EXTRA_CA_CERTS: hooks.cert,
  });
  try {
    // Warmed first: a fresh process's first seconds (compiling, opening connections) are slow, and
    // counted as idle they would flatter the ratio.
    await lookups(service.url, keys, names, 5).result;
    const idle = await lookups(service.url, keys, names, 15).result;
    log(`lookups idle: p99 ${idle.p99} ms, ${idle.requestsPerSecond.toFixed(0)} req/s (load ${load()})`);
    const during = lookups(service.url, keys, names, 600);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // The news arrives now, as a load's would: the service queues news it finds at its start, so
    // news present before would be delivered during the idle measurement.
    const news = async (advertiserId: string, total: number) => {
      const started = performance.now();
      const cpuBefore = machineBusySeconds();
      const [serviceBefore, receiverBefore] = [cpuSeconds(service.pid) ?? 0, cpuSeconds(hooks.pid) ?? 0];
      await sql`
        INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
        SELECT id, ${advertiserId}, 'Bench Bidder', 'bench.com', '2026-11-24', 1 FROM watches
        WHERE target LIKE 'bench%.com'`;
      await queueWatchNews(sql);
      let posts = await hooks.posts();
      while (posts < total && performance.now() - started < 300_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        posts = await hooks.posts();
      }
      return {
        seconds: (performance.now() - started) / 1000,
        posts,
        cpuSeconds: machineBusySeconds() - cpuBefore,
        serviceCpuSeconds: (cpuSeconds(service.pid) ?? 0) - serviceBefore,
        receiverCpuSeconds: (cpuSeconds(hooks.pid) ?? 0) - receiverBefore,
      };
    };
    const { seconds, posts } = await news('AR1', count);
    during.stop();
    const busy = await during.result;
    // The same deliveries again with no lookups: what delivering costs the machine (the service,
    // the receiver, PostgreSQL), and so the least it must take from lookups that keep it busy.
    const alone = await news('AR2', 2 * count);
    const cpuPerPostMs = (alone.cpuSeconds * 1000) / count;
    const shareAt500 = (500 * cpuPerPostMs) / 1000 / os.cpus().length;
    const [{ delivered, charged }] = await sql<{ delivered: number; charged: number }[]>`
      SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL)::integer AS delivered,
             count(*) FILTER (WHERE billing = 'paid')::integer AS charged
      FROM watch_deliveries`;
    const result = {
      deliveries: count,
      posts,
      delivered,
      charged,
      seconds: Number(seconds.toFixed(2)),
      perSecond: Math.round(posts / seconds),
      idleP99Ms: idle.p99,
      duringP99Ms: busy.p99,
      p99Ratio: Number((busy.p99 / Math.max(idle.p99, 1)).toFixed(2)),
      aloneSeconds: Number(alone.seconds.toFixed(2)),
      alonePerSecond: Math.round(count / alone.seconds),
      machineCpuMsPerPost: Number(cpuPerPostMs.toFixed(3)),
      serviceCpuMsPerPost: Number(((alone.serviceCpuSeconds * 1000) / count).toFixed(3)),
      receiverCpuMsPerPost: Number(((alone.receiverCpuSeconds * 1000) / count).toFixed(3)),
      machineShareAt500PerSecond: Number(shareAt500.toFixed(3)),
      leastP99RatioAt500PerSecond: Number((1 / (1 - shareAt500)).toFixed(2)),
      load: load(),
    };
    log(`delivery: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await service.stop();
    await sql.end();
    await hooks.close();
    await dropCopy(server, 'alk_watches_delivery');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const server = await openBenchServer(process.env.DATABASE_URL, log);
  try {
    const results: Record<string, unknown> = { cpus: os.cpus().length, startLoad: load() };
    if (options.only !== 'b') results.matching = await partA(server);
    if (options.only !== 'a') results.delivery = await partB(server);
    results.endLoad = load();
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    // A run of one part keeps the other part's figures of the last run.
    const kept =
      options.write && options.only && fs.existsSync(RESULTS) ? JSON.parse(fs.readFileSync(RESULTS, 'utf8')) : {};
    if (options.write) fs.writeFileSync(RESULTS, `${JSON.stringify({ ...kept, ...results }, null, 2)}\n`);
  } finally {
    await server.close();
  }
}

await main();
