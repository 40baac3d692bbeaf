/**
 * Field rules shared by the three ingest kinds (docs/product-rules.md §10, R10.4).
 *
 * A record is a plain object whose values normally are strings. JSON `null`, a missing field,
 * an empty string and a string of only white space are all "missing"; any other non-string value
 * is malformed. A failed rule throws RecordRejected, which the batch runner turns into a reject.
 */

// The longest name ingest stores is the longest a lookup accepts (docs/product-rules.md R10.7, R3.8).
import { MAX_NAME_CODE_POINTS } from '../contract/parameters.ts';

export class RecordRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export function reject(reason: string): never {
  throw new RecordRejected(reason);
}

/** The field as a string, or undefined when it is missing. */
export function optionalText(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') reject(`malformed ${field}`);
  return value.trim() === '' ? undefined : value;
}

export function requiredText(record: Record<string, unknown>, field: string): string {
  return optionalText(record, field) ?? reject(`missing ${field}`);
}

// PostgreSQL text cannot hold NUL, and a lone surrogate cannot be stored as UTF-8 unchanged.
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters, on purpose
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** An advertiser name, kept exactly as given: never trimmed, case-folded or normalized. */
export function advertiserName(record: Record<string, unknown>): string {
  const name = requiredText(record, 'advertiser_name');
  if (UNSTORABLE.test(name)) reject('malformed advertiser_name');
  if (longerThan(name, MAX_NAME_CODE_POINTS)) reject('advertiser_name too long');
  return name;
}

/** Whether `text` has more than `max` code points. */
export function longerThan(text: string, max: number): boolean {
  // A code point takes one or two UTF-16 units, so a short string needs no counting.
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** A real calendar date `YYYY-MM-DD` (years 0001–9999), returned unchanged. */
export function calendarDate(record: Record<string, unknown>, field: string): string {
  const value = requiredText(record, field);
  const match = DATE.exec(value);
  if (match === null) reject(`malformed ${field}`);
  if (!isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) reject(`impossible date ${field}`);
  return value;
}

export function isCalendarDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `YYYY-MM-DD` of a Date's UTC calendar day. */
export function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const TIMESTAMP = new RegExp(
  '^([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,][0-9]+)?)?' +
    '(?:(Z)|([+-])([0-9]{2}):?([0-9]{2}))?$',
  'i',
);

/**
 * A crawl time as UTC `YYYY-MM-DD HH:MM:SS`: without an offset the value is UTC already, with `Z`
 * or `±HH:MM` / `±HHMM` it is converted; fractional seconds are truncated.
 */
export function utcTimestamp(record: Record<string, unknown>, field: string): string {
  const value = requiredText(record, field);
  const match = TIMESTAMP.exec(value);
  if (match === null) reject(`malformed ${field}`);
  const [, y, mo, d, h, mi, s = '00', , sign, oh, om] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) reject(`impossible date ${field}`);
  const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (sign !== undefined && (Number(oh) > 23 || Number(om) > 59)) reject(`malformed ${field}`);

  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) reject(`impossible date ${field}`);
  return (
    `${String(utcYear).padStart(4, '0')}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}` +
    ` ${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}`
  );
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
