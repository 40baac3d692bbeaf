import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

/** The media type of an export (docs/product-rules.md §16), as the contract lists it. */
export const CSV = 'text/csv';

type Value = string | number | boolean | null;

/**
 * What a spreadsheet would run as a formula: text starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return (OWASP's "CSV injection"). Such text gets a leading apostrophe (R16.2, R12.40).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field of RFC 4180 CSV, the one writer of every CSV the service answers (the API's exports
 * and the account page's ledger): text that starts a formula gets a leading apostrophe; numbers
 * and booleans are written as they are, a negative number included; then a field holding a comma,
 * a double quote, CR or LF is quoted, its double quotes doubled. Null is the empty field.
 */
export function csvField(value: Value): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: a header row of `columns`, then one record per row, every line ended by CRLF. */
export function toCsv(columns: readonly string[], rows: readonly object[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) {
    const values = row as Record<string, Value>;
    lines.push(columns.map((column) => csvField(values[column] ?? null)).join(','));
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
