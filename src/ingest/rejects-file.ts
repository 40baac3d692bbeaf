import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { IngestReject } from './batches.ts';
import type { Format } from './read-records.ts';

/**
 * The default rejects file: beside the input, named after it (`data/obs.ndjson.gz` gives
 * `data/obs.rejects.ndjson`); for standard input, `<kind>.rejects.<format>` in the working folder.
 */
export function defaultRejectsPath(file: string, kind: string, format: Format): string {
  if (file === '-') return `${kind}.rejects.${format}`;
  const base = path.basename(file).replace(/\.gz$/i, '');
  const stem = base.replace(/\.(ndjson|jsonl|json|csv)$/i, '');
  return path.join(path.dirname(file), `${stem}.rejects.${format}`);
}

/**
 * Writes rejects in the input's own format, each record as it was in the input with the line
 * and reason in front, so the file can be fixed and loaded again as it is: the loaders ignore
 * fields they do not know.
 *  - NDJSON: `{"_line":12,"_reason":"malformed country",` followed by the original object's
 *    members as written; a line that was no JSON object keeps its text in `_text`, so every
 *    line of the file is JSON.
 *  - CSV: the input's header with `_line,_reason,` in front, then each record likewise.
 * The file is created at the first reject, so a clean load leaves no file behind.
 */
export class RejectsFile {
  private stream: fs.WriteStream | undefined;
  count = 0;

  constructor(
    readonly path: string,
    private readonly format: Format,
    private readonly csvHeader: () => string | undefined,
  ) {}

  /** Resolves once the stream has room again, so a flood of rejects is not buffered in memory. */
  write(reject: IngestReject, text: string | undefined): Promise<void> | undefined {
    if (this.stream === undefined) {
      this.stream = fs.createWriteStream(this.path);
      if (this.format === 'csv') this.stream.write(`_line,_reason,${this.csvHeader() ?? ''}\n`);
    }
    this.count += 1;
    const line = this.format === 'csv' ? csvLine(reject, text) : ndjsonLine(reject, text);
    if (this.stream.write(`${line}\n`)) return undefined;
    return once(this.stream, 'drain').then(() => undefined);
  }

  async close(): Promise<void> {
    if (this.stream === undefined) return;
    const stream = this.stream;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
  }
}

function ndjsonLine({ line, reason }: IngestReject, text: string | undefined): string {
  const prefix = `{"_line":${line},"_reason":${JSON.stringify(reason)}`;
  if (text === undefined) return `${prefix}}`;
  if (!isJsonObject(text)) return `${prefix},"_text":${JSON.stringify(text)}}`;
  const members = text.slice(text.indexOf('{') + 1);
  return /^\s*\}/.test(members) ? `${prefix}${members}` : `${prefix},${members}`;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function csvLine({ line, reason }: IngestReject, text: string | undefined): string {
  return `${line},${csvField(reason)},${text ?? ''}`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
