import { isBlank, type Line, MAX_LINE_BYTES } from './lines.ts';

/** One CSV record: its fields, or why it has none, and the physical lines it spans. */
export interface CsvRecord {
  /** Physical line the record starts on. */
  line: number;
  /** The record's original text, line breaks within it included. */
  text: string;
  fields?: string[];
  problem?: string;
}

const OPEN = Symbol('open quote');
const MALFORMED = Symbol('text after a closing quote');

/**
 * Splits one record of RFC 4180 CSV: fields separated by commas, a field starting with `"` is
 * quoted (`""` inside is one quote, and it may span lines); a quote inside an unquoted field is
 * taken literally. OPEN when a quoted field is still open at the end of the text.
 */
export function splitCsvRecord(text: string): string[] | typeof OPEN | typeof MALFORMED {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === 0x22) {
      let value = '';
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) return OPEN;
        value += text.slice(i, quote);
        if (text.charCodeAt(quote + 1) === 0x22) {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (i === text.length) return fields;
      if (text.charCodeAt(i) !== 0x2c) return MALFORMED;
      i += 1;
    } else {
      const comma = text.indexOf(',', i);
      if (comma === -1) {
        fields.push(text.slice(i));
        return fields;
      }
      fields.push(text.slice(i, comma));
      i = comma + 1;
    }
  }
}

/**
 * Assembles CSV records from physical lines, which arrive a chunk at a time. Blank lines outside
 * quotes are skipped. A record whose quote is never closed (by the end of the input, or within
 * MAX_LINE_BYTES), or closes lines later only to be followed by text, is reported from its first
 * line alone, and the lines after that are read again as records of their own: a stray quote
 * costs one record, never the rest of the file.
 */
export class CsvAssembler {
  private pending: Line[] = [];
  private pendingBytes = 0;

  /** The records completed by `lines`; with `end`, also whatever is still open. */
  push(lines: readonly Line[], end = false): CsvRecord[] {
    const records: CsvRecord[] = [];
    const queue = [...lines];
    while (queue.length > 0 || (end && this.pending.length > 0)) {
      if (queue.length === 0) {
        // The input ended inside a quoted field.
        this.giveUp(records, queue);
        continue;
      }
      const line = queue.shift()!;
      if (line.problem !== undefined) {
        // Unreadable lines stand alone; a record open across one cannot be trusted either.
        if (this.pending.length > 0) {
          queue.unshift(line);
          this.giveUp(records, queue);
          continue;
        }
        records.push({ line: line.line, text: line.text, problem: line.problem });
        continue;
      }
      if (this.pending.length === 0) {
        if (isBlank(line.text)) continue;
        if (!line.text.includes('"')) {
          records.push({ line: line.line, text: line.text, fields: line.text.split(',') });
          continue;
        }
      }
      const continued = this.pending.length > 0;
      this.pending.push(line);
      this.pendingBytes += line.text.length + 1;
      // A line without a quote cannot close the open one.
      const text = continued && !line.text.includes('"') ? '' : joinLines(this.pending);
      const fields = text === '' ? OPEN : splitCsvRecord(text);
      if (fields === OPEN) {
        if (this.pendingBytes > MAX_LINE_BYTES) this.giveUp(records, queue);
        continue;
      }
      if (fields === MALFORMED && this.pending.length > 1) {
        // The quote that opened on the first line more likely was a stray one than this closing one.
        this.giveUp(records, queue);
        continue;
      }
      const first = this.pending[0].line;
      this.pending = [];
      this.pendingBytes = 0;
      if (fields === MALFORMED) records.push({ line: first, text, problem: 'malformed CSV quoting' });
      else records.push({ line: first, text, fields });
    }
    return records;
  }

  /** Rejects the open record's first line and puts the lines after it back in the queue. */
  private giveUp(records: CsvRecord[], queue: Line[]): void {
    const [first, ...after] = this.pending;
    records.push({ line: first.line, text: first.text, problem: 'unclosed quote' });
    queue.unshift(...after);
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** The lines of a record with the breaks they had. */
function joinLines(lines: readonly Line[]): string {
  let text = lines[0].text;
  for (let i = 1; i < lines.length; i += 1) text += `${lines[i - 1].crlf ? '\r\n' : '\n'}${lines[i].text}`;
  return text;
}
