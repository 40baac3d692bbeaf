import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { constants, createGzip } from 'node:zlib';
import { formatOfPath } from '../ingest/read-records.ts';
import { inCrawlOrder, type Order } from './crawl-order.ts';
import { type DatasetOptions, generateDataset } from './generator.ts';

export interface WrittenFile {
  /** The path, or `-` for standard output. */
  path: string;
  records: number;
}

export interface DatasetFiles {
  observations: WrittenFile;
  crawls?: WrittenFile;
  labels?: WrittenFile;
}

export interface WriteDatasetOptions {
  /** Exactly this many observation records. */
  observations: number;
  seed: number;
  today: Date;
  /** Crawl order (day by day, advertisers mixed), as real files come, or grouped by advertiser and creative. */
  order?: Order;
  /** The background's names; default the generator's plain names. */
  names?: DatasetOptions['names'];
  /** Observations file; `-` writes them to `stdout`. NDJSON or CSV by extension, gzip when it ends in `.gz`. */
  out: string;
  /** Companion files (same format); null for none. */
  crawls: string | null;
  labels: string | null;
  stdout?: NodeJS.WritableStream;
  /** Called now and then with the observation records written so far. */
  onProgress?: (records: number) => void;
}

/**
 * Writes a synthetic dataset through the seeded generator, streaming: memory stays flat at any
 * size (in crawl order it holds one week of records). The same options give the same bytes. The
 * generator's population is sized a little above the count asked for and cut there, since its
 * sizes are approximate; the crawls and labels cover that whole population, the few beyond the
 * cut being crawled or labelled names without observations. Both orders hold the same records.
 */
export async function writeDataset(options: WriteDatasetOptions): Promise<DatasetFiles> {
  const size = Math.ceil(options.observations * 1.15) + 5_000;
  const dataset = generateDataset({ seed: options.seed, size, today: options.today, names: options.names });
  const observations = take(dataset.observations(), options.observations);
  const files: DatasetFiles = {
    observations: await writeRecords(
      options.out,
      (options.order ?? 'crawl') === 'crawl' ? inCrawlOrder(observations, options.seed) : observations,
      options.stdout,
      options.onProgress,
    ),
  };
  if (options.crawls !== null) files.crawls = await writeRecords(options.crawls, dataset.crawls(), options.stdout);
  if (options.labels !== null) files.labels = await writeRecords(options.labels, dataset.labels(), options.stdout);
  return files;
}

/**
 * A companion file's default path beside the observations file: `observations-N.ndjson` gives
 * `crawls-N.ndjson`, any other name gets the kind before its extension (`big.csv.gz` gives
 * `big.crawls.csv.gz`).
 */
export function companionPath(out: string, kind: 'crawls' | 'labels'): string {
  const base = path.basename(out);
  if (base.startsWith('observations'))
    return path.join(path.dirname(out), `${kind}${base.slice('observations'.length)}`);
  const match = /(\.(?:ndjson|jsonl|json|csv))?(\.gz)?$/i.exec(base)!;
  return path.join(path.dirname(out), `${base.slice(0, match.index)}.${kind}${match[0]}`);
}

/** The first `count` items. */
export function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  let taken = 0;
  for (const item of items) {
    yield item;
    if (++taken >= count) return;
  }
}

const FLUSH_CHARS = 1 << 18;

async function writeRecords(
  target: string,
  records: Iterable<Record<string, string>>,
  stdout: NodeJS.WritableStream = process.stdout,
  onProgress?: (records: number) => void,
): Promise<WrittenFile> {
  const csv = target !== '-' && formatOfPath(target) === 'csv';
  const file = target === '-' ? undefined : fs.createWriteStream(target);
  const failed =
    file === undefined ? new Promise<never>(() => {}) : once(file, 'error').then(([error]) => Promise.reject(error));
  failed.catch(() => {});
  // Fastest compression: these files are written once to be read once.
  const gzip = target.toLowerCase().endsWith('.gz') ? createGzip({ level: constants.Z_BEST_SPEED }) : undefined;
  if (gzip !== undefined) gzip.pipe(file!);
  const sink: NodeJS.WritableStream = gzip ?? file ?? stdout;

  let count = 0;
  let buffer = '';
  let fields: string[] | undefined;
  const flush = async () => {
    if (buffer === '') return;
    const ok = sink.write(buffer);
    buffer = '';
    if (!ok) await Promise.race([once(sink, 'drain'), failed]);
  };
  for (const record of records) {
    if (csv) {
      if (fields === undefined) {
        fields = Object.keys(record);
        buffer += `${fields.join(',')}\n`;
      }
      buffer += `${fields.map((field) => csvField(record[field])).join(',')}\n`;
    } else {
      buffer += `${JSON.stringify(record)}\n`;
    }
    count += 1;
    if (buffer.length >= FLUSH_CHARS) {
      await flush();
      onProgress?.(count);
    }
  }
  await flush();
  if (file !== undefined) {
    sink.end();
    await Promise.race([once(file, 'close'), failed]);
  }
  onProgress?.(count);
  return { path: target, records: count };
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value.trim() !== value ? `"${value.replace(/"/g, '""')}"` : value;
}
