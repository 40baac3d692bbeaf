/*
 * An account's usage, for the account page's overview and getAccountUsage alike: the billed calls
 * per UTC day and operation (SQL: data/usage.ts), laid out day by day with their sums once.
 */
import type { UsageRow } from '../data/usage.ts';
import type { ApiKey } from './keys.ts';
import { daysFrom } from './usage-days.ts';

export { type UsageRow, usageByDay } from '../data/usage.ts';

/** Billed calls, those of them refunded, and the credits they finally cost. */
export interface UsageCounts {
  calls: number;
  refundedCalls: number;
  credits: number;
}

/** One UTC day's counts, and each operation's that day in operation order. */
export interface UsageDay extends UsageCounts {
  day: string;
  /** `mcpCalls`: of the operation's calls, the tool calls of the MCP endpoint. */
  operations: (UsageCounts & { operation: string; mcpCalls: number })[];
}

function add(sum: UsageCounts, counts: UsageCounts): void {
  sum.calls += counts.calls;
  sum.refundedCalls += counts.refundedCalls;
  sum.credits += counts.credits;
}

/** Every day from `from` to `to`, oldest first, days without calls as zeros; and the whole range's total. */
export function usageDays(rows: UsageRow[], from: string, to: string): { days: UsageDay[]; total: UsageCounts } {
  const total: UsageCounts = { calls: 0, refundedCalls: 0, credits: 0 };
  const days = new Map(
    daysFrom(from, to).map((day): [string, UsageDay] => [
      day,
      { day, calls: 0, refundedCalls: 0, credits: 0, operations: [] },
    ]),
  );
  for (const row of rows) {
    const day = days.get(row.day);
    if (day === undefined) continue;
    const counts = { calls: row.calls, refundedCalls: row.refundedCalls, credits: row.credits };
    day.operations.push({ operation: row.operation, ...counts, mcpCalls: row.mcpCalls });
    add(day, counts);
    add(total, counts);
  }
  return { days: [...days.values()], total };
}

/** The operations' counts over all the days, most credits first (then by operationId). */
export function usageByOperation(days: UsageDay[]): (UsageCounts & { operation: string })[] {
  const byOperation = new Map<string, UsageCounts & { operation: string }>();
  for (const day of days)
    for (const counts of day.operations) {
      const sum = byOperation.get(counts.operation) ?? {
        operation: counts.operation,
        calls: 0,
        refundedCalls: 0,
        credits: 0,
      };
      add(sum, counts);
      byOperation.set(counts.operation, sum);
    }
  return [...byOperation.values()].sort((a, b) => b.credits - a.credits || a.operation.localeCompare(b.operation));
}

/**
 * The keys whose daily cap the usage shows: the active ones with a cap; to a test key's caller,
 * only the test keys', whose spend is what their calls would have cost (docs/product-rules.md §17).
 */
export function cappedKeys(keys: ApiKey[], { sandbox }: { sandbox: boolean }): (ApiKey & { dailyCap: number })[] {
  return keys.filter(
    (key): key is ApiKey & { dailyCap: number } =>
      key.revokedAt === null && key.dailyCap !== null && (key.sandbox || !sandbox),
  );
}
