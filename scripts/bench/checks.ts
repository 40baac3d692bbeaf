import fs from 'node:fs';
import readline from 'node:readline';
import type { Sql } from '../../src/data/client.ts';
import type { BenchAccount } from './accounts.ts';
import type { CellResult } from './stats.ts';

/**
 * What the harness saw of every charge, per account: the credits each answer said it charged
 * (`X-Credits-Charged`, or the debit's own result for the baseline) and the balance it reported
 * with the charge. A request sent but never answered (the load stopped with it in flight, a
 * socket error) stays pending; the check settles it from the ledger by its request id.
 */
export class ChargeBook {
  readonly charged: number[];
  private readonly pending = new Map<string, number>();
  /** Request id → `credits_remaining` reported with a charge. */
  readonly remaining = new Map<string, number>();

  constructor(accounts: number) {
    this.charged = new Array<number>(accounts).fill(0);
  }

  sent(requestId: string, account: number): void {
    this.pending.set(requestId, account);
  }

  /** An answer to `requestId`: it charged `credits` and left `remaining`. */
  answered(requestId: string, credits: number, remaining: number): void {
    const account = this.pending.get(requestId);
    if (account === undefined) throw new Error(`answer to a request the harness did not send: ${requestId}`);
    this.pending.delete(requestId);
    if (credits > 0) {
      this.charged[account] += credits;
      this.remaining.set(requestId, remaining);
    }
  }

  get unanswered(): ReadonlyMap<string, number> {
    return this.pending;
  }

  /** Settles an unanswered request with what the ledger says it charged. */
  settle(requestId: string, credits: number): void {
    const account = this.pending.get(requestId);
    if (account === undefined) return;
    this.pending.delete(requestId);
    this.charged[account] += credits;
  }
}

export interface CheckOutcome {
  name: string;
  ok: boolean;
  detail: string;
}

export interface AccountState {
  accountId: number;
  balance: number;
  ledgerSum: number;
}

/**
 * The two balance rules, as pure logic: each account's balance equals what it was funded with
 * minus the charges the harness saw (no overspend, nothing lost, nothing charged twice), and its
 * ledger sums to its balance.
 */
export function compareBalances(
  accounts: readonly BenchAccount[],
  charged: readonly number[],
  states: readonly AccountState[],
): CheckOutcome[] {
  const byId = new Map(states.map((state) => [state.accountId, state]));
  const balanceMismatches: string[] = [];
  const ledgerMismatches: string[] = [];
  for (const account of accounts) {
    const state = byId.get(account.accountId);
    if (state === undefined) {
      balanceMismatches.push(`account ${account.accountId} is missing`);
      continue;
    }
    const expected = account.funded - charged[account.index];
    if (state.balance !== expected)
      balanceMismatches.push(
        `account ${account.accountId}: balance ${state.balance}, expected ` +
          `${expected} (funded ${account.funded}, charged ${charged[account.index]})`,
      );
    if (state.ledgerSum !== state.balance)
      ledgerMismatches.push(
        `account ${account.accountId}: ledger sums to ${state.ledgerSum}, balance is ${state.balance}`,
      );
  }
  const describe = (mismatches: string[], ok: string) =>
    mismatches.length === 0
      ? ok
      : `${mismatches.length} of ${accounts.length} accounts differ; ${mismatches.slice(0, 5).join('; ')}`;
  const totalCharged = accounts.reduce((sum, account) => sum + charged[account.index], 0);
  return [
    {
      name: 'no overspend: balance = funded − charges seen',
      ok: balanceMismatches.length === 0,
      detail: describe(
        balanceMismatches,
        `${accounts.length} accounts, ${totalCharged.toLocaleString('en-US')} credits charged, every balance exact`,
      ),
    },
    {
      name: 'ledger sums equal balances',
      ok: ledgerMismatches.length === 0,
      detail: describe(ledgerMismatches, `${accounts.length} accounts`),
    },
  ];
}

/**
 * The checks after a run, on the database, once the service has stopped (nothing in flight):
 * settles unanswered requests from the ledger, then compares balances, ledger sums, and every
 * charge's ledger row with the balance its answer reported.
 */
export async function checkAccounts(
  sql: Sql,
  accounts: readonly BenchAccount[],
  book: ChargeBook,
): Promise<CheckOutcome[]> {
  const ids = accounts.map((account) => account.accountId);
  const unanswered = [...book.unanswered.keys()];
  for (let i = 0; i < unanswered.length; i += 1000) {
    const chunk = unanswered.slice(i, i + 1000);
    const rows = await sql<{ request_id: string; credits: number }[]>`
      SELECT request_id, -sum(amount)::bigint AS credits FROM ledger
      WHERE request_id = ANY(${chunk}) AND kind IN ('charge', 'refund') AND account_id = ANY(${ids})
      GROUP BY request_id`;
    const charged = new Map(rows.map((row) => [row.request_id, row.credits]));
    for (const id of chunk) book.settle(id, charged.get(id) ?? 0);
  }

  const states = await sql<{ account_id: number; balance: number; ledger_sum: number }[]>`
    SELECT a.id AS account_id, a.balance, coalesce((SELECT sum(l.amount) FROM ledger l
      WHERE l.account_id = a.id), 0)::bigint AS ledger_sum
    FROM accounts a WHERE a.id = ANY(${ids})`;
  const outcomes = compareBalances(
    accounts,
    book.charged,
    states.map((s) => ({ accountId: s.account_id, balance: s.balance, ledgerSum: s.ledger_sum })),
  );

  // Every answer that reported a charge has its own ledger row, with the balance it reported.
  let rows = 0;
  const wrong: string[] = [];
  const seen = new Set<string>();
  await sql<{ request_id: string; balance_after: number }[]>`
    SELECT l.request_id, l.balance_after FROM ledger l
    WHERE l.account_id = ANY(${ids}) AND l.kind = 'charge'
      AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.refund_of = l.id)`.cursor(5_000, (batch) => {
    for (const row of batch) {
      rows += 1;
      const reported = book.remaining.get(row.request_id);
      if (reported === undefined) continue; // settled from the ledger: it was never answered
      if (seen.has(row.request_id)) wrong.push(`${row.request_id} has two charge rows`);
      seen.add(row.request_id);
      if (reported !== row.balance_after)
        wrong.push(`${row.request_id} reported ${reported}, its ledger row says ${row.balance_after}`);
    }
  });
  const missing = book.remaining.size - seen.size;
  if (missing > 0) wrong.push(`${missing} charged answers have no ledger row`);
  outcomes.push({
    name: 'each charge reported its own exact credits_remaining',
    ok: wrong.length === 0,
    detail:
      wrong.length === 0
        ? `${book.remaining.size.toLocaleString('en-US')} charged answers, ${rows.toLocaleString('en-US')} charge rows`
        : wrong.slice(0, 5).join('; '),
  });
  return outcomes;
}

/**
 * The capped keys' spend counters, which the debit statement keeps for the cap check: each key's
 * spend today (UTC) equals its charges today that were not refunded, as the ledger records them
 * (every key keeps the count, capped or not), and stays within its cap.
 */
export async function checkCapSpend(sql: Sql, capped: readonly BenchAccount[]): Promise<CheckOutcome> {
  const name = "capped keys' spend today = their charges today, within the cap";
  if (capped.length === 0) return { name, ok: false, detail: 'no capped keys' };
  const rows = await sql<{ key_id: number; daily_cap: number | null; spent: number; charged: number }[]>`
    WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day),
    charged AS (
      SELECT c.key_id, sum(-c.amount)::bigint AS credits FROM ledger c, today
      WHERE c.account_id = ANY(${capped.map((account) => account.accountId)})
        AND c.key_id = ANY(${capped.map((account) => account.keyId)}) AND c.kind = 'charge'
        AND c.created_at >= today.day AT TIME ZONE 'UTC'
        AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.refund_of = c.id)
      GROUP BY c.key_id)
    SELECT k.id AS key_id, k.daily_cap,
      CASE WHEN k.cap_day = today.day THEN k.cap_day_spent ELSE 0 END::bigint AS spent,
      coalesce(charged.credits, 0)::bigint AS charged
    FROM api_keys k CROSS JOIN today LEFT JOIN charged ON charged.key_id = k.id
    WHERE k.id = ANY(${capped.map((account) => account.keyId)})`;
  const wrong: string[] = [];
  if (rows.length !== capped.length) wrong.push(`${capped.length - rows.length} capped keys are missing`);
  for (const row of rows) {
    if (row.daily_cap === null) wrong.push(`key ${row.key_id} has no cap`);
    else if (row.spent > row.daily_cap)
      wrong.push(`key ${row.key_id} spent ${row.spent} over its cap ${row.daily_cap}`);
    if (row.spent !== row.charged) wrong.push(`key ${row.key_id}: spent ${row.spent}, charged ${row.charged} today`);
  }
  const spent = rows.reduce((sum, row) => sum + row.spent, 0);
  return {
    name,
    ok: wrong.length === 0,
    detail:
      wrong.length === 0
        ? `${rows.length} keys, ${spent.toLocaleString('en-US')} credits counted against their caps`
        : `${wrong.length} differ; ${wrong.slice(0, 5).join('; ')}`,
  };
}

/**
 * A cap far above the run's spend refuses nothing: no cell saw a 403 (a cap's refusal,
 * `daily_cap_reached`), and there were capped cells to see one.
 */
export function checkNoRefusals(cells: readonly CellResult[]): CheckOutcome {
  const capped = cells.filter((cell) => cell.mode === 'capped');
  const refused = cells.filter((cell) => (cell.errorStatuses['403'] ?? 0) > 0);
  const calls = capped.reduce((sum, cell) => sum + cell.requests, 0);
  const errors = capped.reduce((sum, cell) => sum + cell.errors, 0);
  return {
    name: 'no call refused by a daily cap (403)',
    ok: capped.length > 0 && refused.length === 0,
    detail:
      refused.length > 0
        ? refused
            .slice(0, 5)
            .map((cell) => `${cell.mode} ${cell.operation} c=${cell.concurrency}: ${cell.errorStatuses['403']} × 403`)
            .join('; ')
        : capped.length === 0
          ? 'no capped cells were measured'
          : `${calls.toLocaleString('en-US')} calls on capped keys in ${capped.length} cells, none refused` +
            (errors > 0 ? ` (${errors} other errors, see the table)` : ''),
  };
}

/**
 * The service's request log of the run (a JSON line per request, as it ships): how many lines,
 * and none at warn or above (a failure the answers' statuses would not show, a billing step
 * that failed after the answer). The file is removed once read when it holds no such line.
 */
export async function checkRequestLog(file: string, answered: number): Promise<CheckOutcome> {
  const name = 'request log: a line per request, none at warn or above';
  let lines = 0;
  const faults: string[] = [];
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    lines += 1;
    if (/"level":"(warn|error|fatal)"/.test(line) && faults.length < 3) faults.push(line.slice(0, 300));
  }
  if (faults.length > 0) return { name, ok: false, detail: `${file}: ${faults.join(' / ')}` };
  fs.rmSync(file, { force: true });
  return {
    name,
    ok: lines >= answered,
    detail:
      `${lines.toLocaleString('en-US')} lines for ${answered.toLocaleString('en-US')} ` +
      'answers counted by the harness',
  };
}
