import { isUtf8 } from 'node:buffer';

/** One physical line of an input file, without its line break. */
export interface Line {
  /** 1-based physical line number. */
  line: number;
  text: string;
  /** Ended by `\r\n` rather than `\n`: a quoted CSV field spanning lines keeps the break it had. */
  crlf?: boolean;
  /** Why the line cannot be read as text; its text is then what could be decoded of it. */
  problem?: string;
}

/** Longest line kept whole; the rest of a longer line is skipped, so memory stays flat. */
export const MAX_LINE_BYTES = 1 << 20;
/** What a too-long line keeps of its text, for the rejects file. */
const KEPT_OF_LONG_LINE = 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into physical lines, a chunk at a time: each call of `next` returns the
 * lines completed by the next chunk (possibly none), or null after the last line. `\n` and
 * `\r\n` end lines; a UTF-8 byte order mark before the first line is dropped. A line that is not
 * valid UTF-8 or is longer than MAX_LINE_BYTES comes with a problem instead of being guessed at.
 */
export class LineSplitter {
  private rest: Buffer | undefined;
  private lineNumber = 0;
  /** Inside a line already reported as too long, whose remaining bytes are dropped. */
  private skipping = false;
  private ended = false;

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  async next(): Promise<Line[] | null> {
    if (this.ended) return null;
    const { value, done } = await this.chunks.next();
    const lines: Line[] = [];
    if (done) {
      this.ended = true;
      if (this.rest !== undefined && this.rest.length > 0 && !this.skipping)
        lines.push(this.lineOf(this.rest, 0, this.rest.length));
      this.rest = undefined;
      return lines;
    }
    let buffer: Buffer = this.rest === undefined ? value : Buffer.concat([this.rest, value]);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      if (this.skipping) this.skipping = false;
      else lines.push(this.lineOf(buffer, start, end));
      start = end + 1;
    }
    buffer = buffer.subarray(start);
    if (this.skipping) {
      this.rest = undefined;
    } else if (buffer.length > MAX_LINE_BYTES) {
      const kept = buffer.toString('utf8', 0, KEPT_OF_LONG_LINE);
      lines.push({ line: ++this.lineNumber, text: `${kept}…`, problem: `line longer than ${MAX_LINE_BYTES} bytes` });
      this.skipping = true;
      this.rest = undefined;
    } else {
      // A copy, so the chunk it came from is not kept alive by a short tail.
      this.rest = buffer.length === 0 ? undefined : Buffer.from(buffer);
    }
    return lines;
  }

  private lineOf(buffer: Buffer, start: number, end: number): Line {
    const line = ++this.lineNumber;
    const crlf = end > start && buffer[end - 1] === CARRIAGE_RETURN;
    if (crlf) end -= 1;
    if (end - start > MAX_LINE_BYTES) {
      return {
        line,
        text: `${buffer.toString('utf8', start, start + KEPT_OF_LONG_LINE)}…`,
        problem: `line longer than ${MAX_LINE_BYTES} bytes`,
      };
    }
    let text = buffer.toString('utf8', start, end);
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    // Decoding replaces invalid bytes with U+FFFD; only then is the line worth checking.
    if (text.includes('\uFFFD') && !isUtf8(buffer.subarray(start, end)))
      return { line, text, problem: 'not valid UTF-8' };
    return crlf ? { line, text, crlf } : { line, text };
  }
}

/** Blank lines (empty or only white space) are skipped, not rejected. */
export function isBlank(text: string): boolean {
  return text.length === 0 || text.trim().length === 0;
}
