import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchAccount, createBenchAccounts, RequestIds } from '../../scripts/bench/accounts.ts';
import {
  ChargeBook,
  type CheckOutcome,
  checkAccounts,
  checkCapSpend,
  checkNoRefusals,
} from '../../scripts/bench/checks.ts';
import type { CellResult } from '../../scripts/bench/stats.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { debit } from '../support/debit.ts';

const PRICE = 9;

describe('benchmark checks: no overspend, ledger sums, exact credits_remaining', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  /** Fresh accounts and a book with `charges` debits per account recorded, as the harness records them. */
  async function chargedRun(charges: number) {
    const accounts = await createBenchAccounts(db.sql, {
      count: 3,
      credits: 1_000,
      tag: `t${Math.random().toString(36).slice(2, 8)}`,
    });
    const book = new ChargeBook(accounts.length);
    const ids = new RequestIds(`t${accounts[0].accountId}`);
    for (const account of accounts) {
      await Promise.all(Array.from({ length: charges }, () => charge(account, book, ids)));
    }
    return { accounts, book, ids };
  }

  async function charge(account: BenchAccount, book: ChargeBook | null, ids: RequestIds, record = true) {
    const requestId = ids.next();
    book?.sent(requestId, account.index);
    const result = await debit(db.sql, {
      keyHash: account.keyHash,
      price: PRICE,
      endpoint: 'getAdvertiserHistory',
      requestId,
    });
    if (result.outcome !== 'debited') throw new Error(result.outcome);
    if (record) book?.answered(requestId, PRICE, result.balance);
    return { requestId, balance: result.balance };
  }

  const failed = (outcomes: CheckOutcome[]) => outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.name);

  it('funded accounts: one key each, the first-key grant plus the purchase', async () => {
    const { accounts } = await chargedRun(0);
    expect(accounts.map((account) => account.funded)).toEqual([1_200, 1_200, 1_200]);
    expect(new Set(accounts.map((account) => account.key)).size).toBe(3);
  });

  it('every check passes when each balance is its funding minus the charges seen', async () => {
    const { accounts, book } = await chargedRun(20);
    const outcomes = await checkAccounts(db.sql, accounts, book);
    expect(failed(outcomes)).toEqual([]);
    expect(outcomes.map((outcome) => outcome.name)).toHaveLength(3);
  });

  it('a charge the harness never saw answered is an overspend, and fails the balance check', async () => {
    const { accounts, book, ids } = await chargedRun(5);
    await charge(accounts[1], null, ids);
    expect(failed(await checkAccounts(db.sql, accounts, book))).toEqual([
      'no overspend: balance = funded − charges seen',
    ]);
  });

  it('a request left in flight is settled from the ledger by its request id, charged or not', async () => {
    const { accounts, book, ids } = await chargedRun(5);
    await charge(accounts[0], book, ids, false); // debited, answer lost
    book.sent(ids.next(), accounts[2].index); // never reached the database
    expect(book.unanswered.size).toBe(2);
    expect(failed(await checkAccounts(db.sql, accounts, book))).toEqual([]);
    expect(book.charged[accounts[0].index]).toBe(6 * PRICE);
    expect(book.charged[accounts[2].index]).toBe(5 * PRICE);
  });

  it('a balance that moved without its ledger row fails the ledger check', async () => {
    const { accounts, book } = await chargedRun(3);
    await db.sql`UPDATE accounts SET balance = balance - 1 WHERE id = ${accounts[2].accountId}`;
    book.charged[accounts[2].index] += 1;
    expect(failed(await checkAccounts(db.sql, accounts, book))).toEqual(['ledger sums equal balances']);
  });

  it('an answer that reported a balance other than its own ledger row fails the credits_remaining check', async () => {
    const { accounts, book, ids } = await chargedRun(2);
    const requestId = ids.next();
    book.sent(requestId, accounts[0].index);
    const result = await debit(db.sql, {
      keyHash: accounts[0].keyHash,
      price: PRICE,
      endpoint: 'getAdvertiserHistory',
      requestId,
    });
    if (result.outcome !== 'debited') throw new Error(result.outcome);
    book.answered(requestId, PRICE, result.balance + PRICE); // as if two answers shared one balance
    expect(failed(await checkAccounts(db.sql, accounts, book))).toEqual([
      'each charge reported its own exact credits_remaining',
    ]);
  });

  it("a capped key's spend today must equal its charges today in the ledger, within its cap", async () => {
    const { accounts, book, ids } = await chargedRun(2);
    for (const account of accounts)
      expect(await setDailyCap(db.sql, account.accountId, account.keyId, 1_000)).toBe(true);
    for (const account of accounts) await charge(account, book, ids);
    const ok = await checkCapSpend(db.sql, accounts);
    expect(ok).toMatchObject({ ok: true, detail: `3 keys, ${3 * 3 * PRICE} credits counted against their caps` });
    await db.sql`UPDATE api_keys SET cap_day_spent = cap_day_spent - 1 WHERE id = ${accounts[1].keyId}`;
    expect(await checkCapSpend(db.sql, accounts)).toMatchObject({ ok: false });
    const { accounts: uncapped } = await chargedRun(1);
    expect(await checkCapSpend(db.sql, uncapped)).toMatchObject({ ok: false });
  });
});

describe('benchmark check: no call refused by a daily cap', () => {
  const cell = (mode: CellResult['mode'], errorStatuses: Record<string, number> = {}): CellResult => ({
    mode,
    operation: 'advertiser',
    concurrency: 8,
    requestsPerSecond: 100,
    p50: 1,
    p99: 1,
    requests: 300,
    notFound: 0,
    errors: Object.values(errorStatuses).reduce((sum, n) => sum + n, 0),
    errorStatuses,
    seconds: 3,
    peakRssMb: null,
  });

  it('passes when capped cells were measured and no cell saw a 403', () => {
    expect(checkNoRefusals([cell('service'), cell('capped'), cell('capped', { socket: 1 })])).toMatchObject({
      ok: true,
      detail: '600 calls on capped keys in 2 cells, none refused (1 other errors, see the table)',
    });
  });

  it('fails on a 403 in any cell, and when no capped cell was measured', () => {
    expect(checkNoRefusals([cell('service'), cell('capped', { 403: 2 })])).toMatchObject({
      ok: false,
      detail: 'capped advertiser c=8: 2 × 403',
    });
    expect(checkNoRefusals([cell('service')]).ok).toBe(false);
  });
});
