import { addDays, daysFrom, utcDay } from '../accounts/usage-days.ts';
import type { UsageRow } from '../data/usage.ts';

/** The periods the overview offers, in days ending today (UTC). */
export const PERIODS = [30, 90] as const;
export type Period = (typeof PERIODS)[number];

/** The UTC days of the `days` days ending with `today`, oldest first, as `YYYY-MM-DD`. */
export function daysEnding(today: Date, days: number): string[] {
  const last = utcDay(today);
  return daysFrom(addDays(last, 1 - days), last);
}

export interface UsageSeries {
  days: string[];
  /** Per day, every operation together. */
  calls: number[];
  credits: number[];
  /** Per operation over the period, most credits first. */
  operations: { operation: string; calls: number; refundedCalls: number; credits: number }[];
  total: { calls: number; refundedCalls: number; credits: number };
}

/** The usage rows laid out for the chart and tables: every day of the period, days without calls as 0. */
export function usageSeries(rows: UsageRow[], days: string[]): UsageSeries {
  const index = new Map(days.map((day, i) => [day, i]));
  const calls = days.map(() => 0);
  const credits = days.map(() => 0);
  const byOperation = new Map<string, { operation: string; calls: number; refundedCalls: number; credits: number }>();
  const total = { calls: 0, refundedCalls: 0, credits: 0 };
  for (const row of rows) {
    const i = index.get(row.day);
    if (i === undefined) continue;
    calls[i] += row.calls;
    credits[i] += row.credits;
    const sum = byOperation.get(row.operation) ?? { operation: row.operation, calls: 0, refundedCalls: 0, credits: 0 };
    sum.calls += row.calls;
    sum.refundedCalls += row.refundedCalls;
    sum.credits += row.credits;
    byOperation.set(row.operation, sum);
    total.calls += row.calls;
    total.refundedCalls += row.refundedCalls;
    total.credits += row.credits;
  }
  const operations = [...byOperation.values()].sort(
    (a, b) => b.credits - a.credits || a.operation.localeCompare(b.operation),
  );
  return { days, calls, credits, operations, total };
}
