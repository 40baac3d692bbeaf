import { getAccountUsageRoute as route } from '../../generated/routes.ts';
import { keysOf } from '../accounts/keys.ts';
import { cappedKeys, type UsageCounts, usageByDay, usageDays } from '../accounts/usage.ts';
import { dayNumber, dayText, utcDay } from '../accounts/usage-days.ts';
import { ApiError } from '../contract/errors.ts';
import { usageRange } from '../contract/usage-range.ts';
import type { Sql } from '../data/client.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

/** The default range, in days ending with `to`; and the longest one a call may ask for: the contract's. */
const { defaultDays: DEFAULT_DAYS, maxDays: MAX_DAYS } = usageRange();

/** Counts as the contract names them. */
const countsJson = ({ calls, refundedCalls, credits }: UsageCounts) => ({
  calls,
  refunded_calls: refundedCalls,
  credits,
});

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
    const usage = usageDays(rows, from, to);
    const days = usage.days.map((day) => ({
      day: day.day,
      ...countsJson(day),
      operations: day.operations.map((counts) => ({ operation: counts.operation, ...countsJson(counts) })),
    }));
    const daily_caps = cappedKeys(await keysOf(sql, c.get('accountId')), { sandbox }).map((key) => ({
      key_prefix: key.displayPrefix,
      name: key.name,
      daily_cap: key.dailyCap,
      spent_today: key.spentToday,
    }));
    return c.json({ from, to, total: countsJson(usage.total), days, daily_caps }, 200);
  });
}
