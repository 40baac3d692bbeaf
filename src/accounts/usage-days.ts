import { ApiError } from '../contract/errors.ts';
import type { UsageRange } from '../contract/usage-range.ts';

const DAY_MS = 86_400_000;

/** The UTC day of `at`, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` day: ranges are measured by subtraction, never by listing. */
export function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/** The `YYYY-MM-DD` of a day number (four-digit years: the days the service handles are 1970 to 9999). */
export function dayText(day: number): string {
  return utcDay(new Date(day * DAY_MS));
}

/** The day `days` after `day` (before it when negative). */
export function addDays(day: string, days: number): string {
  return dayText(dayNumber(day) + days);
}

/**
 * Every UTC day from `first` to `last`, both included, oldest first. Counted by day number, not
 * by comparing texts: the day after 9999-12-31 is written "+010000-01-01", which sorts before it.
 */
export function daysFrom(first: string, last: string): string[] {
  const start = dayNumber(first);
  const length = Math.max(0, dayNumber(last) - start + 1);
  return Array.from({ length }, (_, offset) => dayText(start + offset));
}

/** The days a usage call asks for, both ends included. */
export interface UsageDaysAsked {
  from: string;
  to: string;
}

/**
 * The days a usage call asks for (docs/product-rules.md R2.8.1, R2.8.3): `to`, or today; `from`,
 * or the range's default length ending with `to`. Reversed, or longer than the contract's longest
 * range: `400 invalid_range`. Counted, not listed: a range of thousands of years is refused
 * without making its days.
 */
export function usageDaysAsked(
  asked: { from?: string; to?: string },
  today: Date,
  { defaultDays, maxDays }: UsageRange,
): UsageDaysAsked {
  const last = dayNumber(asked.to ?? utcDay(today));
  const first = asked.from === undefined ? last - (defaultDays - 1) : dayNumber(asked.from);
  const [from, to] = [dayText(first), dayText(last)];
  if (first > last)
    throw new ApiError('invalid_range', `The range from ${from} to ${to} is reversed: "from" must not be after "to".`);
  const length = last - first + 1;
  if (length > maxDays)
    throw new ApiError(
      'invalid_range',
      `The range from ${from} to ${to} is ${length} days; ask for ${maxDays} at most.`,
    );
  return { from, to };
}
