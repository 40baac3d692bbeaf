import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type postgres from 'postgres';

/** A connection held for the whole of one load: its temp tables live as long as it does. */
// biome-ignore lint/complexity/noBannedTypes: postgres.js's own spelling of "no custom types"
export type Connection = postgres.ReservedSql<{}>;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format; null is `\N`. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]) : value;
}

/** A COPY in progress on a connection: text goes to the server as it is written. */
export interface CopyStream {
  /** Sends text; resolves once the connection can take more, rejects once the copy failed. */
  write(text: string): Promise<void>;
  /** Ends the copy; resolves when the server has taken every row. */
  end(): Promise<void>;
}

/**
 * Starts `COPY … FROM STDIN` (text format: one line per row, fields separated by tabs) on
 * `connection`.
 *
 * postgres.js resolves a COPY query with its stream, so an error the server reports during the
 * copy can no longer reject the query's promise, and the stream never finishes: awaiting it alone
 * would hang. The query's reject hook is wrapped to surface that error instead.
 */
export async function openCopy(connection: Connection, statement: string): Promise<CopyStream> {
  const query = connection.unsafe(statement) as postgres.PendingQuery<postgres.Row[]> & {
    reject?: (error: unknown) => void;
  };
  const failed = new Promise<never>((_, reject) => {
    const original = query.reject;
    query.reject = (error: unknown) => {
      original?.(error);
      reject(error);
    };
  });
  failed.catch(() => {});
  const stream = await Promise.race([query.writable(), failed]);
  const done = finished(stream);
  done.catch(() => {});
  return {
    async write(text) {
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), failed, done]);
    },
    async end() {
      stream.end();
      await Promise.race([done, failed]);
    },
  };
}
