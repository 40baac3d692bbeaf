import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Sql } from '../data/client.ts';
import {
  CRAWL_FIELDS,
  DEFAULT_BATCH_SIZE,
  type IngestOptions,
  type IngestSummary,
  ingestCrawls,
  ingestLabels,
  ingestObservations,
  LABEL_FIELDS,
  MAX_BATCH_SIZE,
  OBSERVATION_FIELDS,
  type Records,
} from '../ingest/index.ts';
import { startProgress } from '../ingest/progress.ts';
import { FORMATS, type Format, InputError, openInput } from '../ingest/read-records.ts';
import { defaultRejectsPath, RejectsFile } from '../ingest/rejects-file.ts';
import { openDatabase } from './database.ts';

/**
 * `npm run ingest -- observations|crawls|labels FILE`: loads an NDJSON or CSV file (gzip or
 * not, `-` for standard input) through the same rules as every other load, writing rejects
 * beside it. Exit codes: 0 loaded (rejects or not), 1 the file or the database failed,
 * 2 bad usage, 130 interrupted.
 */
export interface IngestIo {
  out: (text: string) => void;
  /** Messages, progress and the interruption notice. */
  err: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream;
  /** Resolves when the operator asks to stop (Ctrl-C). */
  interrupted?: Promise<void>;
}

type Kind = 'observations' | 'crawls' | 'labels';

const KINDS: Record<
  Kind,
  {
    ingest: (sql: Sql, records: Records, options: IngestOptions) => Promise<IngestSummary>;
    fields: readonly string[];
    about: string;
  }
> = {
  observations: {
    ingest: ingestObservations,
    fields: OBSERVATION_FIELDS,
    about:
      'creative_id, advertiser_id (AR + digits), advertiser_name, ' +
      'country (two letters), landing_url, seen_on (YYYY-MM-DD)',
  },
  crawls: {
    ingest: ingestCrawls,
    fields: CRAWL_FIELDS,
    about: 'domain (any URL or host), crawled_at (YYYY-MM-DD HH:MM:SS UTC, or ISO 8601 with Z or an offset)',
  },
  labels: {
    ingest: ingestLabels,
    fields: LABEL_FIELDS,
    about: 'advertiser_name, advertiser_type (agency, direct, or empty/none to clear)',
  },
};

/** The operator stopped the load; what was committed stays, and the same command completes it. */
class Interrupted extends Error {}

/** Nothing was loaded: the message says why. */
class CannotStart extends Error {}

const batchSize = (value: string) => {
  const size = Number(value);
  if (!/^[0-9]+$/.test(value) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_BATCH_SIZE}.`);
  }
  return size;
};

interface CommandOptions {
  format?: Format;
  rejects?: string;
  json?: boolean;
  batchSize?: number;
  progress: boolean;
  fullSpeed?: boolean;
}

function buildProgram(io: IngestIo): Command {
  const program = new Command('ingest')
    .description(
      'Load observations, crawls or labels from an NDJSON or CSV ' +
        'file into the Advertiser and Landing-Domain Lookup API.',
    )
    .usage('<observations|crawls|labels> <file> [options]')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: (text) => io.err.write(text) })
    .showHelpAfterError('(add --help for usage)');

  for (const kind of Object.keys(KINDS) as Kind[]) {
    program
      .command(`${kind} <file>`)
      .description(`load ${kind}; fields: ${KINDS[kind].about}`)
      .addHelpText(
        'after',
        `\nFILE is NDJSON (one JSON object per line) or CSV with a header row, by its extension (.ndjson, .jsonl,
.json, .csv) or --format; gzip is recognized whatever the name; - reads standard input. Bad records
never stop a load: each is written with its line number and reason to the rejects file and counted.
Loading the same file again changes nothing; an interrupted load is completed by running it again.`,
      )
      .addOption(
        new Option('--format <format>', 'file format (default: from the extension, else guessed)').choices(FORMATS),
      )
      .option('--rejects <path>', 'where to write rejected records (default: beside FILE, <name>.rejects.<format>)')
      .option('--json', 'print only the summary, as one JSON object, on standard output')
      .option('--batch-size <rows>', `rows per transaction (default: ${DEFAULT_BATCH_SIZE})`, batchSize)
      .option('--no-progress', 'no progress bar or progress lines')
      .option(
        '--full-speed',
        'apply on two connections even while the service runs on the database (a maintenance window); ' +
          'by default a load beside the running service applies on one, so its lookups keep a core',
      )
      .action((file: string, options: CommandOptions) => load(kind, file, options, io));
  }
  return program;
}

async function load(kind: Kind, file: string, options: CommandOptions, io: IngestIo): Promise<void> {
  const { ingest, fields } = KINDS[kind];
  // The input first: an unreadable file fails before the database is started.
  const input = await openInput(file, { format: options.format, fields, stdin: io.stdin });
  const rejects = new RejectsFile(
    options.rejects ?? defaultRejectsPath(file, kind, input.format),
    input.format,
    () => input.csvHeader,
  );
  const database = await openDatabase().catch((error: unknown) => {
    throw new CannotStart(`cannot open the database: ${error instanceof Error ? error.message : String(error)}`);
  });

  let rows = 0;
  let stopRequested = false;
  void io.interrupted?.then(() => {
    stopRequested = true;
    io.err.write(`\ningest: stopping after the batch in flight…\n`);
  });
  async function* counted(): AsyncGenerator<Record<string, unknown>> {
    for await (const record of input.records) {
      if (stopRequested) throw new Interrupted();
      rows += 1;
      yield record;
    }
  }

  const stopProgress = options.progress
    ? startProgress({ label: kind, stream: io.err, size: input.size, sample: () => ({ rows, bytes: input.bytesRead }) })
    : () => {};
  const started = performance.now();
  let summary: IngestSummary;
  try {
    summary = await ingest(database.sql, counted(), {
      batchSize: options.batchSize,
      onReject: (reject, text) => rejects.write(reject, text),
      fullSpeed: options.fullSpeed,
      onConnections: (_count, yieldsToService) => {
        if (yieldsToService)
          io.err.write(
            'ingest: the service is running on this database: applying on one connection, so its lookups ' +
              'keep a core (--full-speed applies on two)\n',
          );
      },
    });
  } catch (error) {
    if (error instanceof InputError && rows > 0) {
      throw new InputError(
        `${error.message} (after ${rows.toLocaleString('en-US')} rows; the batches applied before are committed)`,
      );
    }
    if (error instanceof Interrupted) {
      throw new Interrupted(
        `interrupted after ${rows.toLocaleString('en-US')} rows; every batch applied ` +
          `so far is committed. Run the same command again to complete the load.`,
      );
    }
    throw error;
  } finally {
    stopProgress();
    await rejects.close();
    await database.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const result = {
    kind,
    file: input.name,
    format: input.format,
    gzip: input.gzip,
    read: summary.read,
    new: summary.new,
    updated: summary.updated,
    unchanged: summary.unchanged,
    rejected: summary.rejected,
    rejects_file: rejects.count > 0 ? rejects.path : null,
    seconds: Math.round(seconds * 1000) / 1000,
    rows_per_second: Math.round(summary.read / Math.max(seconds, 0.001)),
  };
  if (options.json) {
    io.out(`${JSON.stringify(result)}\n`);
    return;
  }
  const n = (value: number) => value.toLocaleString('en-US');
  io.out(
    `Loaded ${kind} from ${input.name} in ${seconds.toFixed(1)} s (${n(result.rows_per_second)} rows/s): ` +
      `${n(summary.read)} read, ${n(summary.new)} new, ${n(summary.updated)} ` +
      `updated, ${n(summary.unchanged)} unchanged, ${n(summary.rejected)} rejected.\n` +
      (result.rejects_file ? `Rejected records, with line numbers and reasons: ${result.rejects_file}\n` : ''),
  );
}

/** Runs one ingest command line; returns the process exit code. */
export async function runIngest(argv: string[], io: IngestIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help is a successful exit; usage errors were already explained by commander.
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' ? 0 : 2;
    }
    if (error instanceof Interrupted) {
      io.err.write(`ingest: ${error.message}\n`);
      return 130;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err.write(
      error instanceof InputError || error instanceof CannotStart
        ? `ingest: ${message}\n`
        : `ingest: the load stopped: ${message}\nEvery batch applied before ` +
            `is committed; run the same command again to complete the load.\n`,
    );
    return 1;
  }
}

async function main(): Promise<void> {
  let interrupt: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  let signals = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      signals += 1;
      // A second signal means now: PostgreSQL rolls back the batch in flight.
      if (signals > 1) process.exit(130);
      interrupt();
    });
  }
  // Until the load reports its outcome: were the event loop to empty with the load unfinished (a
  // connection that never answers), the process must not exit 0 as if it had loaded everything.
  process.exitCode = 1;
  let finished = false;
  process.once('exit', () => {
    if (!finished) process.stderr.write('ingest: stopped before the load finished; run the same command again\n');
  });
  process.exitCode = await runIngest(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: process.stderr,
    stdin: process.stdin,
    interrupted,
  });
  finished = true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`ingest: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
