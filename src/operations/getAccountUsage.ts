import { getAccountUsageRoute as route } from '../../generated/routes.ts';
import { keysOf } from '../accounts/keys.ts';
import { cappedKeys, type UsageCounts, usageByDay, usageDays } from '../accounts/usage.ts';
import type { UsageDaysAsked } from '../accounts/usage-days.ts';
import type { Sql } from '../data/client.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

/** Counts as the contract names them. */
const countsJson = ({ calls, refundedCalls, credits }: UsageCounts) => ({
  calls,
  refunded_calls: refundedCalls,
  credits,
});

export function registerGetAccountUsage(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    // Both ends are there: the parameter step gave a missing one its default and checked the range
    // (http/parameters.ts).
    const { from, to } = c.req.valid('query') as UsageDaysAsked;
    // A test key sees only the sandbox's usage (R17.7): its calls are in no ledger (R17.2), and of
    // the daily caps only the test keys', whose spending is what their calls would have cost.
    const sandbox = c.get('sandbox');
    const rows = sandbox ? [] : await usageByDay(sql, c.get('caller').accountId, from, to);
    const usage = usageDays(rows, from, to);
    const days = usage.days.map((day) => ({
      day: day.day,
      ...countsJson(day),
      operations: day.operations.map((counts) => ({
        operation: counts.operation,
        ...countsJson(counts),
        mcp_calls: counts.mcpCalls,
      })),
    }));
    const daily_caps = cappedKeys(await keysOf(sql, c.get('caller').accountId), { sandbox }).map((key) => ({
      key_prefix: key.displayPrefix,
      name: key.name,
      daily_cap: key.dailyCap,
      spent_today: key.spentToday,
    }));
    return c.json({ from, to, total: countsJson(usage.total), days, daily_caps }, 200);
  });
}
