import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { LINE, TEXT, UNREADABLE } from './batches.ts';
import { CsvAssembler } from './csv.ts';
import { isBlank, type Line, LineSplitter } from './lines.ts';

export const FORMATS = ['ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** The input cannot be read at all (missing, unreadable, corrupt compression, no usable header). */
export class InputError extends Error {}

export interface Input {
  /** The path, or "standard input". */
  name: string;
  format: Format;
  gzip: boolean;
  /** Bytes to read (of the file as stored, so compressed for gzip), when known. */
  size: number | undefined;
  /** Bytes read so far, of the file as stored. */
  readonly bytesRead: number;
  /** The CSV header line as written, once read. */
  readonly csvHeader: string | undefined;
  /**
   * The records in file order, each carrying its physical line (LINE) and original text (TEXT);
   * a line that gives no record carries the reason instead (UNREADABLE). Read once.
   */
  records: AsyncIterable<Record<string, unknown>>;
}

const EXTENSIONS: Record<string, Format> = {
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.json': 'ndjson',
  '.csv': 'csv',
};
const GZIP_MAGIC = [0x1f, 0x8b];
const CHUNK_BYTES = 1 << 16;

/** The format named by a path's extension (`.ndjson`, `.jsonl`, `.json`, `.csv`, each maybe `.gz`). */
export function formatOfPath(file: string): Format | undefined {
  return EXTENSIONS[path.extname(file.replace(/\.gz$/i, '')).toLowerCase()];
}

/**
 * Opens `file` (`-` for `stdin`) for reading records whose fields are `fields`. The format is
 * `format`, else the extension's, else guessed from the first character (`{`: NDJSON); gzip is
 * recognized by its magic bytes, whatever the name. The file is streamed, never held whole.
 * Throws InputError when it cannot be opened, and its records throw InputError when reading
 * fails part way (a truncated gzip, say) or a CSV header lacks one of `fields`.
 */
export async function openInput(
  file: string,
  options: { format?: Format; fields: readonly string[]; stdin?: NodeJS.ReadableStream },
): Promise<Input> {
  const name = file === '-' ? 'standard input' : file;
  let stream: NodeJS.ReadableStream;
  let size: number | undefined;
  if (file === '-') {
    stream = options.stdin ?? process.stdin;
  } else {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
      const stat = await handle.stat();
      if (stat.isDirectory()) {
        await handle.close();
        throw new InputError(`cannot read ${name}: it is a directory`);
      }
      size = stat.isFile() ? stat.size : undefined;
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(`cannot read ${name}: ${describe(error)}`);
    }
    stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  }

  const counter = { bytes: 0 };
  const raw = countBytes(stream, counter, name);
  const first = await raw.next().catch((error: unknown) => {
    throw new InputError(`cannot read ${name}: ${describe(error)}`);
  });
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const gzip = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const bytes = prepend(head, raw);
  const decoded = gzip ? gunzip(bytes, name) : bytes;
  const lines = new LineSplitter(decoded);
  const firstLines = await lines.next();

  const format =
    options.format ??
    (file === '-' ? undefined : formatOfPath(file)) ??
    (firstLines
      ?.find((line) => !isBlank(line.text))
      ?.text.trimStart()
      .startsWith('{') === false
      ? 'csv'
      : 'ndjson');

  const reader = {
    name,
    format,
    gzip,
    size,
    get bytesRead() {
      return counter.bytes;
    },
    csvHeader: undefined as string | undefined,
    records: undefined as unknown as AsyncIterable<Record<string, unknown>>,
  };
  reader.records =
    format === 'ndjson'
      ? ndjsonRecords(firstLines, lines)
      : csvRecords(firstLines, lines, options.fields, name, (header) => (reader.csvHeader = header));
  return reader;
}

async function* ndjsonRecords(firstLines: Line[] | null, lines: LineSplitter): AsyncGenerator<Record<string, unknown>> {
  for (let chunk = firstLines; chunk !== null; chunk = await lines.next()) {
    for (const { line, text, problem } of chunk) {
      if (problem === undefined && isBlank(text)) continue;
      yield problem === undefined ? ndjsonRecord(line, text) : { [LINE]: line, [TEXT]: text, [UNREADABLE]: problem };
    }
  }
}

function ndjsonRecord(line: number, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { [LINE]: line, [TEXT]: text, [UNREADABLE]: 'invalid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { [LINE]: line, [TEXT]: text, [UNREADABLE]: 'not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  // These keys describe where the record came from; the file cannot set them.
  if (UNREADABLE in record) delete record[UNREADABLE];
  record[LINE] = line;
  record[TEXT] = text;
  return record;
}

async function* csvRecords(
  firstLines: Line[] | null,
  lines: LineSplitter,
  fields: readonly string[],
  name: string,
  onHeader: (header: string) => void,
): AsyncGenerator<Record<string, unknown>> {
  const assembler = new CsvAssembler();
  let columns: number[] | undefined;
  let width = 0;
  for (let chunk = firstLines; chunk !== null; ) {
    const next = await lines.next();
    for (const { line, text, fields: values, problem } of assembler.push(chunk, next === null)) {
      if (columns === undefined) {
        if (values === undefined)
          throw new InputError(`cannot read the CSV header of ${name} (line ${line}): ${problem}`);
        columns = headerColumns(values, fields, name);
        width = values.length;
        onHeader(text);
        continue;
      }
      if (values === undefined) {
        yield { [LINE]: line, [TEXT]: text, [UNREADABLE]: problem };
      } else if (values.length !== width) {
        yield { [LINE]: line, [TEXT]: text, [UNREADABLE]: `expected ${width} fields, got ${values.length}` };
      } else {
        const record: Record<string, unknown> = { [LINE]: line, [TEXT]: text };
        for (let i = 0; i < fields.length; i += 1) record[fields[i]] = values[columns[i]];
        yield record;
      }
    }
    chunk = next;
  }
}

/** Where each of `fields` is in the header; other columns are ignored. */
function headerColumns(header: readonly string[], fields: readonly string[], name: string): number[] {
  const names = header.map((column) => column.trim());
  const missing = fields.filter((field) => !names.includes(field));
  if (missing.length > 0) {
    throw new InputError(`the CSV header of ${name} lacks ${missing.join(', ')} (it needs ${fields.join(', ')})`);
  }
  const repeated = fields.filter((field) => names.indexOf(field) !== names.lastIndexOf(field));
  if (repeated.length > 0)
    throw new InputError(`the CSV header of ${name} names ${repeated.join(', ')} more than once`);
  return fields.map((field) => names.indexOf(field));
}

async function* countBytes(
  stream: NodeJS.ReadableStream,
  counter: { bytes: number },
  name: string,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      counter.bytes += buffer.length;
      yield buffer;
    }
  } catch (error) {
    throw new InputError(`cannot read ${name}: ${describe(error)}`);
  }
}

async function* prepend(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

async function* gunzip(bytes: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  // pipeline, not pipe: a read error of the file must end the gunzip stream too.
  const inflated = pipeline(Readable.from(bytes), createGunzip(), () => {});
  try {
    for await (const chunk of inflated) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot decompress ${name}: ${describe(error)}`);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const known: Record<string, string> = {
      ENOENT: 'no such file',
      EACCES: 'permission denied',
      EISDIR: 'it is a directory',
    };
    return (code && known[code]) ?? error.message;
  }
  return String(error);
}
