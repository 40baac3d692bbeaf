import { getAccountUsageRoute as route } from '../../generated/routes.ts';
import { keysOf } from '../accounts/keys.ts';
import { dayNumber, daysFrom, dayText, utcDay } from '../accounts/usage-days.ts';
import { ApiError } from '../contract/errors.ts';
import { usageRange } from '../contract/usage-range.ts';
import type { Sql } from '../data/client.ts';
import { usageByDay } from '../data/usage.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

/** The default range, in days ending with `to`; and the longest one a call may ask for: the contract's. */
const { defaultDays: DEFAULT_DAYS, maxDays: MAX_DAYS } = usageRange();

interface Counts {
  calls: number;
  refunded_calls: number;
  credits: number;
}

export function registerGetAccountUsage(app: App, { sql, now }: { sql: Sql; now: () => Date }) {
  registerOperation(app, route, async (c) => {
    const query = c.req.valid('query');
    const last = dayNumber(query.to ?? utcDay(now()));
    const first = query.from === undefined ? last - (DEFAULT_DAYS - 1) : dayNumber(query.from);
    const [from, to] = [dayText(first), dayText(last)];
    if (first > last)
      throw new ApiError(
        'invalid_range',
        `The range from ${from} to ${to} is reversed: "from" must not be after "to".`,
      );
    // Counted, not listed: a range of thousands of years is refused without making its days.
    const length = last - first + 1;
    if (length > MAX_DAYS)
      throw new ApiError(
        'invalid_range',
        `The range from ${from} to ${to} is ${length} days; ask for ${MAX_DAYS} at most.`,
      );
    await c.get('debit')();
    // A test key sees only the sandbox's usage (R17.7): its calls are in no ledger (R17.2), and of
    // the daily caps only the test keys', whose spending is what their calls would have cost.
    const sandbox = c.get('sandbox');
    const rows = sandbox ? [] : await usageByDay(sql, c.get('accountId'), from, to);
    const total: Counts = { calls: 0, refunded_calls: 0, credits: 0 };
    const days = new Map(
      daysFrom(from, to).map((day) => [
        day,
        { day, calls: 0, refunded_calls: 0, credits: 0, operations: [] as (Counts & { operation: string })[] },
      ]),
    );
    for (const row of rows) {
      const counts = { calls: row.calls, refunded_calls: row.refundedCalls, credits: row.credits };
      const day = days.get(row.day)!;
      day.operations.push({ operation: row.operation, ...counts });
      for (const sum of [day, total]) {
        sum.calls += counts.calls;
        sum.refunded_calls += counts.refunded_calls;
        sum.credits += counts.credits;
      }
    }
    const daily_caps = (await keysOf(sql, c.get('accountId')))
      .filter((key) => key.revokedAt === null && key.dailyCap !== null && (key.sandbox || !sandbox))
      .map((key) => ({
        key_prefix: key.displayPrefix,
        name: key.name,
        daily_cap: key.dailyCap!,
        spent_today: key.spentToday,
      }));
    return c.json({ from, to, total, days: [...days.values()], daily_caps }, 200);
  });
}
