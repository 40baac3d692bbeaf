import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, projectRoot } from '../../src/config.ts';
import { type CheckOutcome, checkNoRefusals, checkRequestLog } from './checks.ts';
import { openBenchServer } from './database.ts';
import { writeDocs } from './docs.ts';
import { BenchError } from './errors.ts';
import type { Measurement } from './load.ts';
import { BENCH_OPERATIONS } from './operations.ts';
import {
  type BenchResults,
  checksTable,
  compareScale,
  evaluateTargets,
  type Machine,
  machineLine,
  ratioRows,
  resultsTable,
  type ScaleComparison,
  scaleSide,
  scaleTable,
  TARGET_CONCURRENCY,
  targetsTable,
} from './report.ts';
import type { CellResult } from './stats.ts';
import { BenchTarget, operationsByLabel } from './target.ts';

/**
 * `npm run bench`: the benchmark of docs/benchmarks.md. For each operation and concurrency it measures the
 * service with keys spread over 1,000 accounts, the service with every request on one key, and
 * the same SQL run directly (the baseline), the service with keys that have a daily cap; once per
 * concurrency the framework floor. Then it
 * checks every balance and ledger, prints the table and writes bench/results.json.
 * `--scale` measures two dataset sizes side by side instead. See docs/benchmarks.md.
 */

const RESULTS_DIR = path.join(projectRoot, 'bench');

interface Options {
  observations: number;
  duration: number;
  warmup: number;
  rounds: number;
  concurrency: number[];
  operations: string[];
  accounts: number;
  sample: number;
  scale: boolean;
  scaleSizes: number[];
  compareOnly: boolean;
  writeDocs: boolean;
  docsOnly: boolean;
  note?: string;
  strict: boolean;
  acceptEncoding?: string;
}

const positiveInt = (value: string) => {
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive whole number.');
  return n;
};
const positiveNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a non-negative number.');
  return n;
};
const intList = (value: string) => value.split(',').map((part) => positiveInt(part.trim()));
const operationList = (value: string) => {
  const labels = value.split(',').map((part) => part.trim());
  for (const label of labels) {
    if (!BENCH_OPERATIONS.some((op) => op.label === label))
      throw new InvalidArgumentError(
        `unknown operation ${label}; one of ${BENCH_OPERATIONS.map((op) => op.label).join(', ')}.`,
      );
  }
  return labels;
};

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const program = new Command('bench')
    .description(
      'Benchmark every operation against its own direct-SQL baseline, with a hot account and the framework floor.',
    )
    .option('--observations <n>', 'dataset size (loaded once per size, then reused)', positiveInt, 2_000_000)
    .option('--duration <seconds>', 'measured seconds per cell', positiveNumber, 6)
    .option('--warmup <seconds>', 'warm-up seconds before each cell (not measured)', positiveNumber, 1)
    .option(
      '--rounds <n>',
      "slices each cell's measured time is cut into, interleaved with the other cells of its operation",
      positiveInt,
      3,
    )
    .option('--concurrency <list>', 'concurrencies, comma-separated', intList, [1, 8, 32])
    .option(
      '--operations <list>',
      `operations, comma-separated (default: all: ${BENCH_OPERATIONS.map((op) => op.label).join(', ')})`,
      operationList,
    )
    .option(
      '--accept-encoding <value>',
      'an Accept-Encoding every request sends, as most HTTP clients do (e.g. "gzip, deflate, br"); default none',
    )
    .option('--accounts <n>', 'funded accounts the spread keys belong to', positiveInt, 1_000)
    .option('--sample <n>', 'names and domains sampled from the dataset for the requests', positiveInt, 2_000)
    .option(
      '--scale',
      'the scale run: both --scale-sizes loaded, their service and baseline cells measured side by side, p50 compared',
    )
    .option('--scale-sizes <list>', 'the two sizes of the scale comparison', intList, [1_000_000, 20_000_000])
    .option('--compare-only', 'compare the saved full runs bench/results-<size>.json of the two --scale-sizes instead')
    .option('--write-docs', 'write docs/benchmarks.md from bench/results.json (and bench/scale.json) after the run')
    .option('--docs-only', 'only write docs/benchmarks.md from the saved results (of --observations when given)')
    .option('--note <text>', 'a note kept with the results and shown in the docs (e.g. which design was measured)')
    .option('--strict', 'exit 1 when a target does not hold (a failed check always fails the run)')
    .showHelpAfterError();
  program.parse(argv, { from: 'user' });
  const options = program.opts<Options>();
  options.operations ??= BENCH_OPERATIONS.map((op) => op.label);

  if (options.docsOnly) {
    writeDocs(
      RESULTS_DIR,
      log,
      program.getOptionValueSource('observations') === 'cli' ? options.observations : undefined,
    );
    return 0;
  }
  if (options.scale && options.scaleSizes.length !== 2) throw new BenchError('--scale-sizes takes two sizes');
  let failed = false;
  if (options.compareOnly) {
    const comparison = compareSaved(options.scaleSizes);
    failed = options.strict && !comparison.target.ok;
  } else if (options.scale) {
    const comparison = await runScale(options);
    failed = !comparison.checks.every((check) => check.ok) || (options.strict && !comparison.target.ok);
  } else {
    const results = await runBenchmark(options);
    failed =
      !results.checks.every((check) => check.ok) || (options.strict && !results.targets.every((target) => target.ok));
  }
  if (options.writeDocs) writeDocs(RESULTS_DIR, log);
  return failed ? 1 : 0;
}

/** What the run opened, closed in reverse order when it ends or is interrupted. */
class Session {
  private closers: (() => Promise<void>)[] = [];
  defer = (close: () => Promise<void>) => {
    this.closers.push(close);
  };
  async close(): Promise<void> {
    for (let close = this.closers.pop(); close !== undefined; close = this.closers.pop()) {
      await close().catch((error: unknown) =>
        log(`while closing: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }
}

const sessions = new Set<Session>();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`\n${signal}: stopping the service and the database (a half-finished load is completed by the next run)`);
    void Promise.allSettled([...sessions].map((session) => session.close())).finally(() => process.exit(130));
  });
}

async function withSession<T>(body: (session: Session) => Promise<T>): Promise<T> {
  const session = new Session();
  sessions.add(session);
  try {
    return await body(session);
  } finally {
    await session.close();
    sessions.delete(session);
  }
}

/** Warms each cell up, then measures them in rounds, each round in another order, and logs them. */
async function measureTogether(measurements: Measurement[], options: Options, label = ''): Promise<CellResult[]> {
  for (const measurement of measurements) await measurement.warmUp();
  for (let round = 0; round < options.rounds; round += 1) {
    for (let i = 0; i < measurements.length; i += 1)
      await measurements[(i + round) % measurements.length].measure(options.duration / options.rounds);
  }
  const cells = measurements.map((measurement) => measurement.result());
  for (const cell of cells) {
    const errors = cell.errors > 0 ? `  errors ${cell.errors} ${JSON.stringify(cell.errorStatuses)}` : '';
    const rss = cell.peakRssMb === null ? '' : `, RSS ≤ ${cell.peakRssMb} MB`;
    log(
      `  ${label}${cell.mode.padEnd(8)} ${cell.operation.padEnd(16)} ` +
        `c=${String(cell.concurrency).padEnd(3)} ${String(Math.round(cell.requestsPerSecond)).padStart(6)} ` +
        `req/s  p50 ${cell.p50} ms  p99 ${cell.p99} ms${rss}${errors}`,
    );
  }
  return cells;
}

/** Answers the service gave in the measured windows (every cell but the baseline's and bare Hono's). */
const servedAnswers = (cells: CellResult[]) =>
  cells
    .filter((cell) => cell.mode !== 'baseline' && cell.mode !== 'bare' && cell.mode !== 'bare-work')
    .reduce((sum, cell) => sum + cell.requests, 0);

function machine(postgres: string, loadStart: number[]): Machine {
  const load = (values: number[]) => values.map((v) => Math.round(v * 100) / 100);
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    loadAverage: { start: load(loadStart), end: load(os.loadavg()) },
  };
}

function runBenchmark(options: Options): Promise<BenchResults> {
  return withSession(async (session) => {
    const loadStart = os.loadavg();
    const config = loadConfig();
    const server = await openBenchServer(config.databaseUrl, log);
    session.defer(() => server.close());
    const target = await BenchTarget.open(server, { ...options, poolSize: config.poolSize, log }, session.defer);
    const operations = operationsByLabel(options.operations);
    await target.preflight(operations);

    const totalCells = options.concurrency.length * (3 + operations.length * 4);
    log(
      `Measuring ${totalCells} cells of ${options.warmup} s warm-up + ` +
        `${options.duration} s each, in ${options.rounds} interleaved rounds (about ` +
        `${Math.ceil((totalCells * (options.warmup + options.duration + 0.2)) / 60)} min)`,
    );
    const cells: CellResult[] = [];
    for (const concurrency of options.concurrency) {
      for (const operation of operations) {
        cells.push(
          ...(await measureTogether(
            [
              target.measurement('service', operation, concurrency),
              target.measurement('capped', operation, concurrency),
              target.measurement('hot', operation, concurrency),
              target.measurement('baseline', operation, concurrency),
            ],
            options,
          )),
        );
      }
      // Last, so that the whole stack is warm when the floor is measured; beside it, in the same
      // interleaved rounds, bare Hono answering the same request, alone and with a few µs of work.
      cells.push(
        ...(await measureTogether(
          [
            target.measurement('floor', null, concurrency),
            target.measurement('bare', null, concurrency),
            target.measurement('bare-work', null, concurrency),
          ],
          options,
        )),
      );
    }
    const checks = [
      ...(await target.finish(log)),
      checkNoRefusals(cells),
      await checkRequestLog(target.requestLog, servedAnswers(cells)),
    ];

    const peakAt = (c: number) => {
      const peaks = cells
        .filter((cell) => cell.concurrency === c && cell.peakRssMb !== null)
        .map((cell) => cell.peakRssMb!);
      return peaks.length === 0 ? null : Math.max(...peaks);
    };
    const results: BenchResults = {
      version: 1,
      date: new Date().toISOString(),
      note: options.note ?? null,
      commit: gitCommit(),
      machine: machine(target.counts.postgres, loadStart),
      config: {
        observations: options.observations,
        durationSeconds: options.duration,
        warmupSeconds: options.warmup,
        rounds: options.rounds,
        concurrencies: options.concurrency,
        poolSize: config.poolSize,
        accounts: options.accounts,
        database: server.description,
        acceptEncoding: options.acceptEncoding ?? null,
      },
      dataset: {
        observations: target.dataset.marker.observations,
        identifiers: target.counts.identifiers,
        landingDomains: target.counts.landingDomains,
        generatedFor: target.dataset.marker.today,
        sampledNames: target.parameters.names.length,
        sampledDomains: target.parameters.domains.length,
        load: target.dataset.loaded && {
          seconds: Math.round(target.dataset.loaded.seconds * 10) / 10,
          observationsPerSecond: target.dataset.loaded.observationsPerSecond,
        },
      },
      cells,
      rss: {
        peakMb: target.sampler.peak === null ? null : Math.round(target.sampler.peak * 10) / 10,
        peakMbByConcurrency: Object.fromEntries(options.concurrency.map((c) => [String(c), peakAt(c)])),
      },
      ratios: ratioRows(cells),
      targets: evaluateTargets(cells, peakAt(TARGET_CONCURRENCY)),
      checks,
    };
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const text = `${JSON.stringify(results, null, 2)}\n`;
    fs.writeFileSync(path.join(RESULTS_DIR, `results-${options.observations}.json`), text);
    fs.writeFileSync(path.join(RESULTS_DIR, 'results.json'), text);

    console.log(`\n${options.observations.toLocaleString('en-US')} observations; ${machineLine(results.machine)}\n`);
    console.log(resultsTable(results));
    console.log(
      `\nPeak service RSS: ${results.rss.peakMb ?? '—'} MB (by ` +
        `concurrency: ${JSON.stringify(results.rss.peakMbByConcurrency)})\n`,
    );
    console.log(targetsTable(results.targets));
    console.log(`\n${checksTable(checks)}\n`);
    log(`Wrote bench/results-${options.observations}.json and bench/results.json`);
    if (!checks.every((check) => check.ok)) log('A check failed: the run fails.');
    return results;
  });
}

/**
 * The scale run: both sizes loaded (each in its own database), a service process on each, and for
 * every operation and concurrency the service and baseline cells of both sizes measured in
 * interleaved rounds, so that the p50 ratio is not at the mercy of the machine's load drifting
 * between two runs.
 */
function runScale(options: Options): Promise<ScaleComparison> {
  return withSession(async (session) => {
    const loadStart = os.loadavg();
    const config = loadConfig();
    const server = await openBenchServer(config.databaseUrl, log);
    session.defer(() => server.close());
    const [smallSize, largeSize] = options.scaleSizes;
    const small = await BenchTarget.open(
      server,
      { ...options, observations: smallSize, poolSize: config.poolSize, log },
      session.defer,
    );
    const large = await BenchTarget.open(
      server,
      { ...options, observations: largeSize, poolSize: config.poolSize, log },
      session.defer,
    );
    const operations = operationsByLabel(options.operations);
    await small.preflight(operations);
    await large.preflight(operations);

    log(
      `Measuring ${options.concurrency.length * operations.length * 4} cells ` +
        `(service and baseline at both sizes) of ${options.warmup} s warm-up + ` +
        `${options.duration} s each, in ${options.rounds} interleaved rounds`,
    );
    const smallCells: CellResult[] = [];
    const largeCells: CellResult[] = [];
    for (const concurrency of options.concurrency) {
      for (const operation of operations) {
        const [smallService, largeService, smallBaseline, largeBaseline] = await measureTogether(
          [
            small.measurement('service', operation, concurrency),
            large.measurement('service', operation, concurrency),
            small.measurement('baseline', operation, concurrency),
            large.measurement('baseline', operation, concurrency),
          ],
          options,
        );
        smallCells.push(smallService, smallBaseline);
        largeCells.push(largeService, largeBaseline);
      }
    }
    const named = (size: number) => (check: CheckOutcome) => ({
      ...check,
      name: `${size.toLocaleString('en-US')} observations: ${check.name}`,
    });
    const checks = [
      ...(await small.finish(log)).map(named(smallSize)),
      named(smallSize)(await checkRequestLog(small.requestLog, servedAnswers(smallCells))),
      ...(await large.finish(log)).map(named(largeSize)),
      named(largeSize)(await checkRequestLog(large.requestLog, servedAnswers(largeCells))),
    ];
    const date = new Date().toISOString();
    const commit = gitCommit();
    const comparison = compareScale(
      { observations: smallSize, date, commit, cells: smallCells },
      { observations: largeSize, date, commit, cells: largeCells },
      { method: 'interleaved', machine: machine(small.counts.postgres, loadStart), checks },
    );
    saveComparison(comparison);
    console.log(`\n${checksTable(checks)}\n`);
    if (!checks.every((check) => check.ok)) log('A check failed: the run fails.');
    return comparison;
  });
}

function compareSaved(sizes: number[]): ScaleComparison {
  if (sizes.length !== 2) throw new BenchError('--scale-sizes takes two sizes');
  const [small, large] = sizes.map((size) => {
    const file = path.join(RESULTS_DIR, `results-${size}.json`);
    if (!fs.existsSync(file))
      throw new BenchError(
        `${path.relative(projectRoot, file)} is missing: run npm run bench -- --observations ${size} first`,
      );
    return JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
  });
  const comparison = compareScale(scaleSide(small), scaleSide(large), {
    method: 'separate runs',
    machine: large.machine,
  });
  saveComparison(comparison);
  return comparison;
}

function saveComparison(comparison: ScaleComparison): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'scale.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  const n = (value: number) => value.toLocaleString('en-US');
  console.log(
    `\nScale: p50 on ${n(comparison.large.observations)} vs ` +
      `${n(comparison.small.observations)} observations (${comparison.method})\n`,
  );
  console.log(scaleTable(comparison));
  console.log(`\n${targetsTable([comparison.target])}\n`);
  log('Wrote bench/scale.json');
}

function gitCommit(): string | null {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}+changes`;
  } catch {
    return null;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const message =
      error instanceof BenchError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    log(`bench: ${message}`);
    process.exitCode = 1;
  },
);
