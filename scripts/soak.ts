/**
 * Soak test: `npm run soak -- --minutes 10 [--rate 150] [--keys 50] [--concurrency 16]`.
 *
 * Starts the real service as `npm start` runs it (its own embedded PostgreSQL in a temporary
 * folder, the demo dataset), funds many keys, and sends a steady, open-loop mix of every
 * operation (200s, data 404s, 400s, 401s, free account calls) for the given time while sampling
 * the service's resident memory. At the end it checks, and prints:
 * - errors: any 5xx, any answer other than the one the call must get, any failed connection: 0;
 * - memory: resident memory in the last minute against the minute after the warm-up (medians): ≤ +10 %;
 * - money: each key's balance is its starting balance less every `X-Credits-Charged` its callers
 *   saw, the ledger holds exactly one charge per charged answer and no refund, and every
 *   balance equals its ledger's sum.
 * Exits 1 when any check fails. Not part of `npm test`: it runs for minutes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { projectRoot } from '../src/config.ts';
import { addCredits, createAccount, createApiKey } from '../src/data/accounts.ts';
import { connect } from '../src/data/client.ts';
import { DEMO } from '../src/synthetic/generator.ts';
import { freePort } from '../test/support/service.ts';

const positive = (value: string) => {
  const number = Number(value);
  if (!(number > 0)) throw new InvalidArgumentError('must be a positive number');
  return number;
};
const options = new Command('soak')
  .option('--minutes <n>', 'how long the load runs', positive, 10)
  .option('--rate <n>', 'requests per second', positive, 150)
  .option('--keys <n>', 'funded API keys the calls are spread over', positive, 50)
  .option('--concurrency <n>', 'most calls in flight at once', positive, 32)
  .option('--warmup <seconds>', 'memory is compared with what it is after this long', positive, 60)
  .option('--sample <seconds>', 'memory sampling interval', positive, 5)
  .option('--keep', 'keep the temporary folder (database, service log)')
  .parse()
  .opts<{
    minutes: number;
    rate: number;
    keys: number;
    concurrency: number;
    warmup: number;
    sample: number;
    keep?: boolean;
  }>();

const MAX_GROWTH = 0.1;
const MEMORY_WINDOW_S = 60;
const CALL_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_RETRIES = 3;
const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** One kind of call and the only answer it may get. */
interface Kind {
  path: string;
  status: number;
  weight: number;
  /** Sent with a key that is well formed but unknown. */
  unknownKey?: boolean;
}
const q = encodeURIComponent;
const KINDS: Kind[] = [
  { path: `/api/v1/advertiser?name=${q(DEMO.brandName)}`, status: 200, weight: 10 },
  { path: `/api/v1/advertiser?name=${q(DEMO.sharedName)}`, status: 200, weight: 8 },
  { path: `/api/v1/advertiser?name=${q(DEMO.formerName)}`, status: 404, weight: 4 },
  { path: `/api/v1/advertiser?name=${q(DEMO.unknownName)}`, status: 404, weight: 4 },
  { path: `/api/v1/domain?domain=${q(`https://www.${DEMO.brandDomain}/`)}`, status: 200, weight: 8 },
  { path: `/api/v1/domain?domain=${DEMO.crawledOnlyDomain}`, status: 200, weight: 4 },
  { path: `/api/v1/domain?domain=${DEMO.unknownDomain}`, status: 404, weight: 3 },
  { path: `/api/v1/advertiser/history?name=${q(DEMO.brandName)}`, status: 200, weight: 6 },
  { path: `/api/v1/advertiser/history?name=${q(DEMO.dormantName)}`, status: 200, weight: 3 },
  { path: `/api/v1/advertiser/domains?name=${q(DEMO.intermediaryName)}`, status: 200, weight: 5 },
  { path: `/api/v1/advertiser/domains?name=${q(DEMO.fewDomainsName)}`, status: 200, weight: 4 },
  { path: `/api/v1/brandbid?domain=${DEMO.brandDomain}`, status: 200, weight: 5 },
  { path: `/api/v1/brandbid?domain=${DEMO.singleDomain}`, status: 200, weight: 3 },
  { path: '/api/v1/account', status: 200, weight: 8 },
  { path: '/api/v1/advertiser?name=', status: 400, weight: 3 },
  { path: '/api/v1/domain?domain=not%20a%20domain', status: 400, weight: 3 },
  { path: '/api/v1/account', status: 401, weight: 2, unknownKey: true },
];
const schedule = KINDS.flatMap((kind) => Array<Kind>(kind.weight).fill(kind));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-soak-'));
fs.chmodSync(dir, 0o755); // initdb runs as the unprivileged postgres user when started as root
const pgPort = await freePort();
const serviceLog = path.join(dir, 'service.log');

log(`Starting the service (embedded PostgreSQL and demo data in ${dir})`);
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: projectRoot,
  env: {
    ...process.env,
    DATABASE_URL: '',
    PORT: '0',
    EMBEDDED_PG_DIR: path.join(dir, 'pg'),
    EMBEDDED_PG_PORT: String(pgPort),
    PENDING_REFUNDS_DIR: path.join(dir, 'refunds'),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
const logFile = fs.createWriteStream(serviceLog);
child.stdout.pipe(logFile);
child.stderr.pipe(logFile);
const baseUrl = await new Promise<string>((resolve, reject) => {
  let seen = '';
  const onData = (chunk: Buffer) => {
    seen += chunk.toString();
    const match = /listening on (http:\/\/\S+)/.exec(seen);
    if (match) {
      child.stdout.off('data', onData);
      resolve(match[1]);
    }
  };
  child.stdout.on('data', onData);
  exited.then((code) => reject(new Error(`the service exited with ${code} before listening; see ${serviceLog}`)));
});
let stopping = false;
process.on('SIGINT', () => {
  stopping = true;
});

const sql = connect(`postgres://postgres:postgres@127.0.0.1:${pgPort}/alk`, 2);
interface Funded {
  accountId: number;
  key: string;
  initial: number;
  charged: number;
  chargedCalls: number;
}
const funded: Funded[] = [];
for (let i = 0; i < options.keys; i++) {
  const account = await createAccount(sql, { email: `soak-${i}@example.com` });
  const { key } = await createApiKey(sql, account.id);
  const { balance } = await addCredits(sql, account.id, 10_000_000, `soak-${process.pid}-${i}`);
  funded.push({ accountId: account.id, key, initial: balance, charged: 0, chargedCalls: 0 });
}
const [{ since }] = await sql<{ since: number }[]>`SELECT coalesce(max(id), 0)::bigint AS since FROM ledger`;
const UNKNOWN_KEY = `alk_${'A'.repeat(38)}`;
log(
  `Service at ${baseUrl} (pid ${child.pid}); ${options.keys} keys funded; ${options.rate} ` +
    `req/s for ${options.minutes} min, at most ${options.concurrency} in flight`,
);

const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
const statuses = new Map<number, number>();
const errors: string[] = [];
let errorCount = 0;
const latencies: number[] = [];
let issued = 0;
let inFlight = 0;
let sequence = 0;
let keepAliveRaces = 0;

function recordError(what: string) {
  errorCount++;
  if (errors.length < 20) errors.push(`${((performance.now() - startedAt) / 1000).toFixed(1)} s: ${what}`);
}

function call(): Promise<void> {
  const n = sequence++;
  const kind = schedule[n % schedule.length];
  const keyIndex = n % funded.length;
  const key = kind.unknownKey ? UNKNOWN_KEY : funded[keyIndex].key;
  const started = performance.now();
  inFlight++;
  return new Promise<void>((resolve) => {
    const finish = () => {
      inFlight--;
      resolve();
    };
    send(kind, keyIndex, key, started, finish, KEEP_ALIVE_RETRIES);
  });
}

function send(kind: Kind, keyIndex: number, key: string, started: number, finish: () => void, retries: number): void {
  const req = request(
    `${baseUrl}${kind.path}`,
    { agent, headers: { authorization: `Bearer ${key}` }, timeout: CALL_TIMEOUT_MS },
    (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode!;
        latencies.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== kind.status)
          recordError(
            `${kind.path} answered ${status}, expected ${kind.status} (request ${res.headers['x-request-id']})`,
          );
        const charged = Number(res.headers['x-credits-charged'] ?? 0);
        if (charged > 0 && !kind.unknownKey) {
          funded[keyIndex].charged += charged;
          funded[keyIndex].chargedCalls++;
        }
        finish();
      });
      res.on('error', (error) => {
        recordError(`${kind.path}: ${error.message}`);
        finish();
      });
    },
  );
  req.on('timeout', () => req.destroy(new Error(`no answer within ${CALL_TIMEOUT_MS} ms`)));
  req.on('error', (error: NodeJS.ErrnoException) => {
    // The server closed an idle keep-alive connection just as this call reused it (the client
    // drops idle connections 1 s before the server's `Keep-Alive: timeout=5`, but a busy machine
    // can stall longer): the request never reached the service, and the exact-balance check would
    // see a charge if it had. Node's documented remedy is to send it again; counted and reported.
    if (retries > 0 && req.reusedSocket && error.code === 'ECONNRESET') {
      keepAliveRaces++;
      send(kind, keyIndex, key, started, finish, retries - 1);
      return;
    }
    recordError(`${kind.path}: ${error.message}`);
    finish();
  });
  req.end();
}

function rssKb(): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]);
}

const samples: { at: number; rssKb: number }[] = [];
const startedAt = performance.now();
const durationMs = options.minutes * 60_000;
const pending = new Set<Promise<void>>();
let lastProgress = startedAt;
let skipped = 0;
const sampler = setInterval(
  () => samples.push({ at: (performance.now() - startedAt) / 1000, rssKb: rssKb() }),
  options.sample * 1000,
);
samples.push({ at: 0, rssKb: rssKb() });

await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - startedAt >= durationMs || stopping) {
      clearInterval(tick);
      resolve();
      return;
    }
    const due = Math.floor(((now - startedAt) / 1000) * options.rate) - issued - skipped;
    for (let i = 0; i < due; i++) {
      if (inFlight >= options.concurrency) {
        // Open loop: a call that cannot start on time is not sent later in a burst; it is counted.
        skipped += due - i;
        break;
      }
      issued++;
      const promise = call();
      pending.add(promise);
      promise.finally(() => pending.delete(promise));
    }
    if (now - lastProgress >= 30_000) {
      lastProgress = now;
      const seconds = (now - startedAt) / 1000;
      log(
        `${seconds.toFixed(0)} s: ${issued} calls (${(issued / seconds).toFixed(1)}/s), ${errorCount} ` +
          `errors, ${skipped} not sent (saturated), RSS ${(samples.at(-1)!.rssKb / 1024).toFixed(1)} ` +
          `MB, p99 ${percentile(latencies, 0.99).toFixed(1)} ` +
          `ms${errors.length > 0 ? `; last error: ${errors.at(-1)}` : ''}`,
      );
    }
  }, 10);
});
await Promise.all(pending);
clearInterval(sampler);
samples.push({ at: (performance.now() - startedAt) / 1000, rssKb: rssKb() });
const elapsedS = (performance.now() - startedAt) / 1000;
agent.destroy();

// Money: what callers were told against what the database holds.
const moneyProblems: string[] = [];
let chargedCalls = 0;
for (const key of funded) {
  chargedCalls += key.chargedCalls;
  const [{ balance }] = await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${key.accountId}`;
  const [ledger] = await sql<{ sum: number; charges: number; refunds: number; charged: number }[]>`
    SELECT coalesce(sum(amount), 0)::bigint AS sum,
           count(*) FILTER (WHERE kind = 'charge' AND id > ${since})::int AS charges,
           count(*) FILTER (WHERE kind = 'refund' AND id > ${since})::int AS refunds,
           coalesce(-sum(amount) FILTER (WHERE kind = 'charge' AND id > ${since}), 0)::bigint AS charged
    FROM ledger WHERE account_id = ${key.accountId}`;
  if (balance !== key.initial - key.charged)
    moneyProblems.push(
      `account ${key.accountId}: balance ${balance}, expected ` +
        `${key.initial} - ${key.charged} = ${key.initial - key.charged}`,
    );
  if (ledger.sum !== balance)
    moneyProblems.push(`account ${key.accountId}: balance ${balance} but the ledger sums to ${ledger.sum}`);
  if (ledger.charges !== key.chargedCalls || ledger.charged !== key.charged) {
    moneyProblems.push(
      `account ${key.accountId}: ${ledger.charges} charges of ${ledger.charged} ` +
        `credits in the ledger, callers saw ${key.chargedCalls} of ${key.charged}`,
    );
  }
  if (ledger.refunds !== 0)
    moneyProblems.push(`account ${key.accountId}: ${ledger.refunds} refunds (a call failed on the server's side)`);
}
await sql.end({ timeout: 5 });

child.kill('SIGTERM');
const exitCode = await exited;

// Memory: the median over the minute after the warm-up against the median over the last minute.
// A median over a minute, not one sample: resident memory rises and falls with each major garbage
// collection (a saw-tooth of tens of MB), and a single sample lands anywhere on it; a leak lifts
// the whole saw-tooth, and with it the median.
const median = (list: { rssKb: number }[]) =>
  list.map((s) => s.rssKb).sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;
const elapsedAt = samples.at(-1)!.at;
const warm = median(
  samples.filter((sample) => sample.at >= options.warmup && sample.at < options.warmup + MEMORY_WINDOW_S),
);
const end = median(samples.filter((sample) => sample.at > elapsedAt - MEMORY_WINDOW_S));
const growth = (end - warm) / warm;
const peak = Math.max(...samples.map((sample) => sample.rssKb));

const checks = [
  { name: 'errors', ok: errorCount === 0, detail: `${errorCount}` },
  {
    name: 'memory growth',
    ok: Number.isFinite(growth) && growth <= MAX_GROWTH,
    detail:
      `${(growth * 100).toFixed(1)} % (median RSS in the minute after warm-up ` +
      `${(warm / 1024).toFixed(1)} MB, in the last minute ${(end / 1024).toFixed(1)} ` +
      `MB, peak ${(peak / 1024).toFixed(1)} MB; limit +${MAX_GROWTH * 100} %)`,
  },
  {
    name: 'exact balances',
    ok: moneyProblems.length === 0,
    detail:
      moneyProblems.length === 0
        ? `${funded.length} keys, ${chargedCalls} charged calls, every balance = start - observed charges = ledger sum`
        : moneyProblems.slice(0, 5).join('; '),
  },
  { name: 'clean shutdown', ok: exitCode === 0, detail: `exit code ${exitCode}` },
  { name: 'duration', ok: !stopping, detail: `${(elapsedS / 60).toFixed(2)} min${stopping ? ' (interrupted)' : ''}` },
];

console.log('\n=== Soak summary ===');
console.log(
  `Calls: ${issued} in ${elapsedS.toFixed(0)} s = ${(issued / elapsedS).toFixed(1)}/s (target ` +
    `${options.rate}/s; ${skipped} not sent because ${options.concurrency} were in flight)`,
);
console.log(
  `Keep-alive races (the server closed an idle connection as a call reused it; sent again): ${keepAliveRaces}`,
);
console.log(
  `Statuses: ${[...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ')}`,
);
console.log(
  `Latency: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ` +
    `ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
);
console.log(
  `RSS samples (MB, every ${options.sample} s): ${samples.map((sample) => (sample.rssKb / 1024).toFixed(0)).join(' ')}`,
);
for (const check of checks) console.log(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
if (errors.length > 0) console.log(`First errors:\n  ${errors.join('\n  ')}`);
console.log(`Service log: ${options.keep ? serviceLog : '(removed; --keep keeps it)'}`);
if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
process.exit(checks.every((check) => check.ok) ? 0 : 1);

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
