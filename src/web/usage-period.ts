import { type UsageCounts, type UsageRow, usageByOperation, usageDays } from '../accounts/usage.ts';
import { addDays, daysFrom, utcDay } from '../accounts/usage-days.ts';

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
  operations: (UsageCounts & { operation: string })[];
  total: UsageCounts;
}

/** The usage rows laid out for the chart and tables: every day of the period, days without calls as 0. */
export function usageSeries(rows: UsageRow[], days: string[]): UsageSeries {
  const usage = usageDays(rows, days[0], days[days.length - 1]);
  return {
    days,
    calls: usage.days.map((day) => day.calls),
    credits: usage.days.map((day) => day.credits),
    operations: usageByOperation(usage.days),
    total: usage.total,
  };
}
