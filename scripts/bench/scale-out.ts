/**
 * What one service process, two, and a read replica serve on this machine (docs/scaling.md):
 * `npm run bench:scale-out [-- --observations 1000000 --duration 8 --rounds 2]`.
 *
 * A PostgreSQL 15 primary of its own and a streaming replica of it (scripts/streaming-replica.ts,
 * durable: fsync on), the synthetic dataset loaded through ingest, then for each layout the
 * service processes started as `npm start` runs them (src/main.ts, request log at its default
 * level to /dev/null, the rate limit on with a quota the load cannot reach) and driven by
 * autocannon with the same number of connections in all, spread evenly over the processes. The
 * layouts are measured in interleaved rounds; each figure is the better round's.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { projectRoot } from '../../src/config.ts';
import { connect } from '../../src/data/client.ts';
import { migrate } from '../../src/data/migrate.ts';
import { generateDataset } from '../../src/synthetic/generator.ts';
import { loadDataset } from '../../src/synthetic/load.ts';
import { startStreamingPair } from '../streaming-replica.ts';
import { createBenchAccounts } from './accounts.ts';
import { keyedGets } from './load.ts';
import { sampleParameters } from './parameters.ts';

interface Layout {
  name: string;
  processes: number;
  replica: boolean;
}

const LAYOUTS: Layout[] = [
  { name: 'one process', processes: 1, replica: false },
  { name: 'two processes', processes: 2, replica: false },
  { name: 'one process + replica', processes: 1, replica: true },
  { name: 'two processes + replica', processes: 2, replica: true },
];

interface Cell {
  layout: string;
  operation: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

const program = new Command()
  .option('--observations <n>', 'synthetic observations loaded', Number, 1_000_000)
  .option('--duration <s>', 'seconds each cell is measured', Number, 8)
  .option('--rounds <n>', 'interleaved rounds', Number, 2)
  .option('--connections <n>', 'connections in all, spread over the processes', Number, 32);
program.parse();
const options = program.opts<{ observations: number; duration: number; rounds: number; connections: number }>();
const log = (line: string) => console.log(`[scale-out] ${line}`);

const pair = await startStreamingPair({ durable: true });
const stopped = () => {
  pair.remove();
  process.exit(130);
};
process.once('SIGINT', stopped);
process.once('SIGTERM', stopped);
try {
  await migrate(pair.primaryUrl);
  const sql = connect(pair.primaryUrl, 4);
  log(`Loading ${options.observations.toLocaleString('en-US')} observations into the primary`);
  await loadDataset(sql, generateDataset({ size: options.observations }));
  // As after any large load: statistics for the planner, the visibility map for index-only scans.
  await sql`VACUUM ANALYZE`;
  await sql`CHECKPOINT`;
  const accounts = await createBenchAccounts(sql, { count: 200, credits: 100_000_000, tag: 'scale-out' });
  const parameters = await sampleParameters(sql, 1_000);
  await caughtUp(pair.primaryUrl, pair.replicaUrl);
  const operations = [
    { label: 'advertiser', path: (i: number) => `/api/v1/advertiser?name=${pick(parameters.names, i)}` },
    { label: 'brandbid', path: (i: number) => `/api/v1/brandbid?domain=${pick(parameters.domains, i)}` },
    { label: 'account', path: () => '/api/v1/account' },
  ];
  const best = new Map<string, Cell>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const layout of LAYOUTS) {
      const processes = await Promise.all(
        Array.from({ length: layout.processes }, () =>
          startProcess({
            DATABASE_URL: pair.primaryUrl,
            ...(layout.replica && { DATABASE_READ_URL: pair.replicaUrl }),
          }),
        ),
      );
      try {
        for (const operation of operations) {
          const cell = await measure(
            processes.map((p) => p.url),
            accounts.map((a) => a.key),
            operation,
          );
          const key = `${layout.name}|${operation.label}`;
          const previous = best.get(key);
          if (!previous || cell.requestsPerSecond > previous.requestsPerSecond)
            best.set(key, { ...cell, layout: layout.name });
          log(
            `round ${round} ${layout.name.padEnd(24)} ${operation.label.padEnd(10)} ` +
              `${cell.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${cell.p50} ms p99 ${cell.p99} ms` +
              (cell.errors > 0 ? ` errors ${cell.errors}` : ''),
          );
        }
      } finally {
        await Promise.all(processes.map((p) => p.stop()));
      }
    }
  }
  await sql.end();
  const cells = [...best.values()];
  const table = [
    '| layout | operation | req/s | × one process | p50 ms | p99 ms |',
    '| :-- | :-- | --: | --: | --: | --: |',
    ...cells.map((cell) => {
      const one = best.get(`one process|${cell.operation}`)!;
      const ratio = (cell.requestsPerSecond / one.requestsPerSecond).toFixed(2);
      const rate = cell.requestsPerSecond.toFixed(0);
      return `| ${cell.layout} | ${cell.operation} | ${rate} | ${ratio} | ${cell.p50} | ${cell.p99} |`;
    }),
  ].join('\n');
  console.log(`\n${table}\n`);
  const results = {
    date: new Date().toISOString(),
    observations: options.observations,
    connections: options.connections,
    duration: options.duration,
    rounds: options.rounds,
    cells,
  };
  fs.writeFileSync(path.join(projectRoot, 'bench', 'scale-out.json'), `${JSON.stringify(results, null, 2)}\n`);
  log('Wrote bench/scale-out.json');
} finally {
  pair.remove();
}

function pick(values: string[], i: number): string {
  return encodeURIComponent(values[i % values.length]);
}

/** Waits until the replica has replayed everything the primary wrote so far. */
async function caughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const primary = connect(primaryUrl, 1);
  const replica = connect(replicaUrl, 1);
  try {
    const [{ lsn }] = await primary<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`;
    for (;;) {
      const [{ behind }] = await replica<{ behind: boolean }[]>`
        SELECT pg_last_wal_replay_lsn() < ${lsn}::pg_lsn AS behind`;
      if (!behind) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await primary.end();
    await replica.end();
  }
}

/** A service process as `npm start` runs it, on a free port; its log goes nowhere. */
function startProcess(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: '0', DEMO_DATA: 'off', RATE_LIMIT_PER_MINUTE: '100000000', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      // From here on its log is read and dropped, as /dev/null would take it.
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({
        url: match[1],
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`a service process exited with ${code}:\n${output}`)));
  });
}

/** One cell: the operation on every process at once, the connections spread evenly over them. */
async function measure(
  urls: string[],
  keys: string[],
  operation: { label: string; path: (i: number) => string },
): Promise<Cell> {
  const run = (url: string, connections: number) =>
    autocannon({ url, connections, duration: options.duration, requests: keyedGets(keys, operation.path) });
  const share = Math.floor(options.connections / urls.length);
  const results = await Promise.all(urls.map((url) => run(url, share)));
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const weighted = (pick: (r: autocannon.Result) => number) =>
    Math.round((results.reduce((sum, r) => sum + pick(r) * r.requests.total, 0) / Math.max(requests, 1)) * 100) / 100;
  return {
    layout: '',
    operation: operation.label,
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.total / options.duration, 0),
    p50: weighted((r) => r.latency.p50),
    p99: weighted((r) => r.latency.p99),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}
