import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoalescedDebits } from '../../src/billing/coalesced-debits.ts';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { TEST_RUN_ID } from '../support/debit.ts';

/**
 * docs/product-rules.md R6.6: concurrent calls (of one hot key or of many) are debited together, one
 * statement and one commit per run of waiting calls, and every call still gets its own ledger row
 * and exact balance.
 */
describe('coalesced debits', () => {
  let api: TestApi;
  let sql: Sql;
  let debitStatements = 0;

  beforeAll(async () => {
    api = await createTestApi();
    sql = connect(api.db.url, 10, {
      onStatement: (statement) => {
        if (statement.includes('debit_credits(')) debitStatements += 1;
      },
    });
  });
  afterAll(async () => {
    await sql.end();
    await api.close();
  });

  const call = (requestId: string, price = 3) => ({
    price,
    endpoint: 'getAdvertiserSummary',
    requestId,
    callId: randomUUID(),
    runId: TEST_RUN_ID,
  });

  it(
    '50 concurrent calls of one key: far fewer statements than ' +
      'calls, one ledger row each, exact balances, nothing lost',
    async () => {
      const { key, accountId } = await api.newKey(1000);
      const debits = new CoalescedDebits(sql);
      const keyHash = hashApiKey(key);
      debitStatements = 0;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => debits.debit({ keyHash, ...call(`hot-${i}`) })),
      );

      expect(debitStatements).toBeLessThanOrEqual(3); // the first call alone, the rest together
      expect(results.every((result) => result.outcome === 'debited')).toBe(true);
      const balances = results.map((result) => (result.outcome === 'debited' ? result.balance : -1));
      // Every call saw the balance its own charge left: 997, 994, … 850, each once, in arrival order.
      expect(balances).toEqual(Array.from({ length: 50 }, (_, i) => 1000 - 3 * (i + 1)));
      const ledger = await api.db.sql<{ request_id: string; balance_after: number; id: number }[]>`
      SELECT id, request_id, balance_after FROM ledger WHERE account_id = ${accountId} AND kind = 'charge'
        AND endpoint <> 'test-setup'
      ORDER BY id`;
      expect(ledger.map((row) => row.request_id)).toEqual(results.map((_, i) => `hot-${i}`));
      expect(ledger.map((row) => row.balance_after)).toEqual(balances);
      for (const [i, result] of results.entries()) {
        expect(result.outcome === 'debited' && result.chargeId).toBe(ledger[i].id);
      }
      expect(await api.balanceOf(accountId)).toBe(850);
      expect(await api.ledgerSum(accountId)).toBe(850);
    },
  );

  it(
    'a balance that covers 7 of 40 concurrent calls: exactly ' +
      '7 pay, the rest are refused with the exact balance left',
    async () => {
      const { key, accountId } = await api.newKey(21);
      const debits = new CoalescedDebits(sql);
      const keyHash = hashApiKey(key);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => debits.debit({ keyHash, ...call(`c-${i}`) })),
      );
      expect(results.filter((result) => result.outcome === 'debited')).toHaveLength(7);
      for (const result of results.filter((result) => result.outcome === 'insufficient')) {
        expect(result).toMatchObject({ outcome: 'insufficient', balance: 0 });
      }
      expect(await api.balanceOf(accountId)).toBe(0);
      expect(await api.ledgerSum(accountId)).toBe(0);
    },
  );

  it(
    'a statement left unanswered past the deadline fails its ' +
      'calls as outcome unknown, and the next statement goes at once',
    async () => {
      const { key, accountId } = await api.newKey(10);
      const debits = new CoalescedDebits(sql, 300);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const lock = api.db.sql.begin(async (tx) => {
        await tx`SELECT 1 FROM accounts WHERE id = ${accountId} FOR UPDATE`;
        locked();
        await held;
      });
      await taken;
      const stuck = debits.debit({ keyHash: hashApiKey(key), ...call('stuck') });
      await expect(stuck).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      const { key: other } = await api.newKey(10);
      expect(await debits.debit({ keyHash: hashApiKey(other), ...call('next') })).toMatchObject({
        outcome: 'debited',
        balance: 7,
      });
      release();
      await lock;
    },
  );

  it('a lone call goes straight to the database in its own statement', async () => {
    const { key } = await api.newKey(10);
    const debits = new CoalescedDebits(sql);
    debitStatements = 0;
    const result = await debits.debit({ keyHash: hashApiKey(key), ...call('alone') });
    expect(result).toMatchObject({ outcome: 'debited', balance: 7 });
    expect(debitStatements).toBe(1);
  });

  it('concurrent calls of different keys share statements too, each charged to its own account', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => api.newKey(10)));
    const debits = new CoalescedDebits(sql);
    debitStatements = 0;
    const results = await Promise.all(
      keys.map(({ key }, i) => debits.debit({ keyHash: hashApiKey(key), ...call(`k-${i}`) })),
    );
    expect(results.map((result) => result.outcome === 'debited' && result.balance)).toEqual(keys.map(() => 7));
    expect(debitStatements).toBeLessThanOrEqual(3);
    for (const { accountId } of keys) {
      expect(await api.balanceOf(accountId)).toBe(7);
      expect(await api.ledgerSum(accountId)).toBe(7);
    }
  });

  it(
    'a statement that fails (lock timeout: nothing committed) charges ' +
      'none of its calls, fails them all, and the next calls run again',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const keyHash = hashApiKey(key);
      // A pool whose statements give up after 200 ms waiting for a lock; another connection holds
      // the account's row, so the in-flight statement and the one queued behind it both fail.
      const impatient = connect(
        `${api.db.url}${api.db.url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c lock_timeout=200')}`,
        2,
      );
      const debits = new CoalescedDebits(impatient);
      try {
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = api.db.sql.begin(async (tx) => {
          await tx`SELECT balance FROM accounts WHERE id = ${accountId} FOR UPDATE`;
          locked();
          await released;
        });
        await isLocked;
        const outcomes = await Promise.allSettled(
          Array.from({ length: 5 }, (_, i) => debits.debit({ keyHash, ...call(`fail-${i}`) })),
        );
        release();
        await holder;
        expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
        const [{ n }] = await api.db.sql`SELECT count(*)::int AS n FROM ledger WHERE request_id LIKE 'fail-%'`;
        expect(n).toBe(0);
        expect(await api.balanceOf(accountId)).toBe(100);

        const again = await debits.debit({ keyHash, ...call('after') });
        expect(again).toMatchObject({ outcome: 'debited', balance: 97 });
        expect(await api.ledgerSum(accountId)).toBe(97);
      } finally {
        await impatient.end();
      }
    },
  );
});
