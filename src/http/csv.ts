import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

/** The media type of an export (docs/product-rules.md §16), as the contract lists it. */
export const CSV = 'text/csv';

type Value = string | number | boolean | null;

/** A field as RFC 4180 writes it: quoted when it holds a comma, a double quote, CR or LF. */
function field(value: Value): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: a header row of `columns`, then one record per row, every line ended by CRLF. */
export function toCsv(columns: readonly string[], rows: readonly object[]): string {
  const lines = [columns.map(field).join(',')];
  for (const row of rows) {
    const values = row as Record<string, Value>;
    lines.push(columns.map((column) => field(values[column] ?? null)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A charged `200` in CSV: the rows of the JSON answer's list, with `headers` (counts, truncation). */
export function csvAnswer(
  c: Context<AppEnv>,
  columns: readonly string[],
  rows: readonly object[],
  headers: Record<string, string> = {},
): Response {
  return c.body(toCsv(columns, rows), 200, { ...headers, 'Content-Type': `${CSV}; charset=utf-8; header=present` });
}
