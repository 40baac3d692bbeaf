import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { setAccountDisabled } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { debitCalls } from '../../src/data/billing.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { TEST_RUN_ID } from '../support/debit.ts';

/** The debit statement (`debit_credits`): calls decided in order, as if each came alone. */
describe('debiting a run of calls in one statement', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const call = (price: number, requestId: string) => ({
    price,
    endpoint: 'getBrandBidReport',
    requestId,
    callId: randomUUID(),
    runId: TEST_RUN_ID,
  });

  it(
    'each call is charged when the balance its predecessors left ' +
      'covers it; a refused call does not stop cheaper ones after it',
    async () => {
      const { key, accountId } = await api.newKey(70);
      const keyHash = hashApiKey(key);
      const results = await debitCalls(
        api.db.sql,
        [call(60, 'a'), call(60, 'b'), call(3, 'c'), call(0, 'd')].map((c) => ({ keyHash, ...c })),
      );
      expect(results.map((result) => [result.outcome, 'balance' in result ? result.balance : null])).toEqual([
        ['debited', 10],
        ['insufficient', 10],
        ['debited', 7],
        ['debited', 7],
      ]);
      expect(results[3]).toMatchObject({ chargeId: null });
      const ledger = await api.db
        .sql`SELECT request_id, amount, balance_after FROM ledger WHERE account_id = ${accountId} AND kind = 'charge'
        AND endpoint = 'getBrandBidReport' ORDER BY id`;
      expect(ledger.map((row) => [row.request_id, row.amount, row.balance_after])).toEqual([
        ['a', -60, 10],
        ['c', -3, 7],
      ]);
      expect(await api.balanceOf(accountId)).toBe(7);
      expect(await api.ledgerSum(accountId)).toBe(7);
    },
  );

  it('an unknown, revoked or disabled key is unauthorized for every call, and nothing is charged', async () => {
    const keyHash = hashApiKey('alk_unknown');
    const unknown = await debitCalls(api.db.sql, [
      { keyHash, ...call(3, 'x') },
      { keyHash, ...call(3, 'y') },
    ]);
    expect(unknown).toEqual([{ outcome: 'unauthorized' }, { outcome: 'unauthorized' }]);

    const revoked = await api.newKey(50);
    await revokeApiKey(api.db.sql, revoked.keyId);
    expect(await debitCalls(api.db.sql, [{ keyHash: hashApiKey(revoked.key), ...call(3, 'r') }])).toEqual([
      { outcome: 'unauthorized' },
    ]);
    expect(await api.balanceOf(revoked.accountId)).toBe(50);

    const disabled = await api.newKey(50);
    await setAccountDisabled(api.db.sql, disabled.accountId, true);
    expect(await debitCalls(api.db.sql, [{ keyHash: hashApiKey(disabled.key), ...call(3, 'd') }])).toEqual([
      { outcome: 'unauthorized' },
    ]);
    expect(await api.balanceOf(disabled.accountId)).toBe(50);
  });

  it(
    'calls of several keys and accounts in one run: each charged to its own ' +
      'account, in order; an unknown key among them changes nothing for the others',
    async () => {
      const first = await api.newKey(10);
      const second = await api.newKey(100);
      const firstHash = hashApiKey(first.key);
      const secondHash = hashApiKey(second.key);
      const results = await debitCalls(api.db.sql, [
        { keyHash: firstHash, ...call(9, 'm1') },
        { keyHash: secondHash, ...call(60, 'm2') },
        { keyHash: hashApiKey('alk_nobody'), ...call(3, 'm3') },
        { keyHash: firstHash, ...call(3, 'm4') },
        { keyHash: secondHash, ...call(15, 'm5') },
      ]);
      expect(results.map((result) => [result.outcome, 'balance' in result ? result.balance : null])).toEqual([
        ['debited', 1],
        ['debited', 40],
        ['unauthorized', null],
        ['insufficient', 1],
        ['debited', 25],
      ]);
      expect(await api.balanceOf(first.accountId)).toBe(1);
      expect(await api.ledgerSum(first.accountId)).toBe(1);
      expect(await api.balanceOf(second.accountId)).toBe(25);
      expect(await api.ledgerSum(second.accountId)).toBe(25);
    },
  );
});
