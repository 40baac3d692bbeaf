import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isCalendarDate } from '../ingest/fields.ts';
import { startProgress } from '../ingest/progress.ts';
import { ORDERS, type Order } from '../synthetic/crawl-order.ts';
import { DEFAULT_SEED, plainNames } from '../synthetic/generator.ts';
import { companionPath, writeDataset } from '../synthetic/write-files.ts';

/**
 * `npm run generate-data -- --observations N`: a synthetic dataset of realistic shape (see the
 * generator) as files the ingest command loads, at any size, in constant memory. The same
 * seed, size and day give the same bytes. Exit codes: 0 written, 1 a file could not be written,
 * 2 bad usage.
 */
export interface GenerateIo {
  out: (text: string) => void;
  err: NodeJS.WritableStream & { isTTY?: boolean };
  stdout?: NodeJS.WritableStream;
}

const MAX_OBSERVATIONS = 1_000_000_000;

const count = (value: string) => {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > MAX_OBSERVATIONS)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_OBSERVATIONS}.`);
  return n;
};

const seed = (value: string) => {
  if (!/^-?[0-9]{1,15}$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
};

const day = (value: string) => {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (match === null || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw new InvalidArgumentError('must be a date YYYY-MM-DD.');
  }
  return new Date(`${value}T00:00:00Z`);
};

interface Options {
  observations: number;
  seed: number;
  out?: string;
  crawls?: string | false;
  labels?: string | false;
  today?: Date;
  order: Order;
  names: (typeof NAMES)[number];
  progress: boolean;
}

const NAMES = ['world', 'plain'] as const;

function buildProgram(io: GenerateIo): Command {
  return new Command('generate-data')
    .description(
      'Write a synthetic observations file, with crawls and labels files beside it, for the ingest command: ' +
        'names shared by several identifiers, intermediaries with hundreds of landing domains, single-domain brands, ' +
        'a brand domain with more than 100 advertisers, crawled-only domains, four years of activity.',
    )
    .requiredOption('--observations <n>', 'number of observation records', count)
    .option('--seed <n>', 'seed of the random background population', seed, DEFAULT_SEED)
    .option(
      '--out <file>',
      'observations file: .ndjson or .csv, .gz to compress, - for standard output (default: observations-N.ndjson)',
    )
    .option('--crawls <file>', 'crawls file (default: beside --out, e.g. crawls-N.ndjson; none with --out -)')
    .option('--no-crawls', 'write no crawls file')
    .option('--labels <file>', 'labels file (default: beside --out, e.g. labels-N.ndjson; none with --out -)')
    .option('--no-labels', 'write no labels file')
    .option('--today <date>', 'last day of activity, YYYY-MM-DD (default: today, UTC)', day)
    .addOption(
      new Option(
        '--order <order>',
        'crawl: day by day, advertisers mixed, as real files come; sorted: grouped by advertiser and creative',
      )
        .choices(ORDERS)
        .default('crawl'),
    )
    .addOption(
      new Option(
        '--names <names>',
        'world: names in every script, legal forms and domains by country, words of faker locales; ' +
          'plain: a few dozen English words, as the demo dataset',
      )
        .choices(NAMES)
        .default('world'),
    )
    .option('--no-progress', 'no progress bar or progress lines')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: (text) => io.err.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .action(async (options: Options) => {
      const out = options.out ?? `observations-${options.observations}.ndjson`;
      const companion = (given: string | false | undefined, kind: 'crawls' | 'labels') =>
        given === false ? null : typeof given === 'string' ? given : out === '-' ? null : companionPath(out, kind);
      let written = 0;
      const stopProgress = options.progress
        ? startProgress({
            label: 'generate-data',
            stream: io.err,
            size: options.observations,
            sample: () => ({ rows: written, bytes: written }),
          })
        : () => {};
      const started = performance.now();
      // Loaded here only: faker is large, and nothing else of the service needs it.
      const names = options.names === 'world' ? (await import('../synthetic/world-names.ts')).worldNames : plainNames;
      let files: Awaited<ReturnType<typeof writeDataset>>;
      try {
        files = await writeDataset({
          observations: options.observations,
          seed: options.seed,
          today: options.today ?? new Date(),
          order: options.order,
          names,
          out,
          crawls: companion(options.crawls, 'crawls'),
          labels: companion(options.labels, 'labels'),
          stdout: io.stdout,
          onProgress: (records) => (written = records),
        });
      } finally {
        stopProgress();
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const lines = [
        `Wrote ${files.observations.records.toLocaleString('en-US')} ` +
          `observations to ${describe(files.observations.path)}`,
      ];
      if (files.crawls)
        lines.push(`${files.crawls.records.toLocaleString('en-US')} crawls to ${describe(files.crawls.path)}`);
      if (files.labels)
        lines.push(`${files.labels.records.toLocaleString('en-US')} labels to ${describe(files.labels.path)}`);
      const summary = `${lines.join(', ')} in ${seconds} s (seed ${options.seed}).\n`;
      // Standard output may be the data itself.
      if (out === '-') io.err.write(summary);
      else io.out(summary);
    });
}

const describe = (file: string) => (file === '-' ? 'standard output' : file);

/** Runs one generate-data command line; returns the process exit code. */
export async function runGenerateData(argv: string[], io: GenerateIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' ? 0 : 2;
    io.err.write(`generate-data: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  runGenerateData(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: process.stderr,
    stdout: process.stdout,
  }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`generate-data: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
