import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/data/accounts.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import { refund } from '../../src/data/billing.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

/** docs/product-rules.md §14: a key's daily cap, checked with the debit in one statement. */
describe('daily caps per key', () => {
  const NOW = new Date('2026-11-24T21:30:00Z');
  const SUMMARY = '/api/v1/advertiser?name=Acme'; // 3 credits, a data 404 on the empty database
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ now: () => NOW, rateLimit: { requests: 0, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await api.close();
  });

  async function chargesOf(keyId: number): Promise<number> {
    const [{ n }] = await api.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ledger WHERE key_id = ${keyId} AND kind = 'charge'`;
    return n;
  }

  it(
    '50 parallel calls on a cap that covers 7: exactly 7 charged, ' + '43 refused with 403 daily_cap_reached, free',
    async () => {
      const { key, accountId, keyId } = await api.newKey(1_000);
      await setDailyCap(api.db.sql, accountId, keyId, 21);
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.request(SUMMARY, { key })));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 404)).toHaveLength(7);
      expect(statuses.filter((status) => status === 403)).toHaveLength(43);
      expect(await chargesOf(keyId)).toBe(7);
      expect(await api.balanceOf(accountId)).toBe(1_000 - 21);
      expect(await api.ledgerSum(accountId)).toBe(1_000 - 21);
      const refused = answers.find((answer) => answer.status === 403)!;
      expect(refused.body).toEqual({
        error: 'daily_cap_reached',
        message:
          'This call costs 3 credits and would take this API key past its daily cap: 21 of 21 credits spent ' +
          'today (UTC). The cap starts afresh at 00:00 UTC.',
        required: 3,
        daily_cap: 21,
        spent_today: 21,
      });
      expect(refused.headers.get('x-credits-charged')).toBe('0');
      expect(refused.headers.get('x-credits-remaining')).toBe('979');
    },
  );

  it('Retry-After counts down to the next midnight UTC', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    await setDailyCap(api.db.sql, accountId, keyId, 2);
    const refused = await api.request(SUMMARY, { key });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe(String(2.5 * 3600));
  });

  it('the cap is checked before the balance: a capped key with too few credits hears of its cap', async () => {
    const { key, accountId, keyId } = await api.newKey(1);
    await setDailyCap(api.db.sql, accountId, keyId, 2);
    const refused = await api.request(SUMMARY, { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'daily_cap_reached', spent_today: 0, daily_cap: 2 });
  });

  it('a cap limits its key only: another key of the account spends on', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    const other = await createApiKey(api.db.sql, accountId, { name: 'other' });
    await setDailyCap(api.db.sql, accountId, keyId, 3);
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
    expect((await api.request(SUMMARY, { key })).status).toBe(403);
    expect((await api.request(SUMMARY, { key: other.key })).status).toBe(404);
    expect((await api.request(SUMMARY, { key: other.key })).status).toBe(404);
  });

  it("a cap set during the day counts the day's earlier charges, refunds deducted", async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    for (let i = 0; i < 3; i++) expect((await api.request(SUMMARY, { key })).status).toBe(404);
    const [first] = await api.db.sql<{ id: number }[]>`
      SELECT id FROM ledger WHERE key_id = ${keyId} AND kind = 'charge' ORDER BY id LIMIT 1`;
    await refund(api.db.sql, first.id, 'test');
    await setDailyCap(api.db.sql, accountId, keyId, 9);
    const next = await api.request(SUMMARY, { key });
    expect(next.status).toBe(404);
    const refused = await api.request(SUMMARY, { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ spent_today: 9, daily_cap: 9 });
  });

  it('a refunded call gives its credits back to the cap as well as to the balance', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    await setDailyCap(api.db.sql, accountId, keyId, 3);
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
    expect((await api.request(SUMMARY, { key })).status).toBe(403);
    const [charge] = await api.db.sql<{ id: number }[]>`
      SELECT id FROM ledger WHERE key_id = ${keyId} AND kind = 'charge'`;
    await refund(api.db.sql, charge.id, 'test');
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
  });

  it('the cap starts afresh on a new UTC day', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    await setDailyCap(api.db.sql, accountId, keyId, 3);
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
    expect((await api.request(SUMMARY, { key })).status).toBe(403);
    // Yesterday's spend, as the key keeps it: a day that is over counts nothing.
    await api.db.sql`UPDATE api_keys SET cap_day = cap_day - 1 WHERE id = ${keyId}`;
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
  });

  it('removing the cap lets the key spend again; a key of another account cannot be capped', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    const stranger = await api.newKey(100);
    expect(await setDailyCap(api.db.sql, stranger.accountId, keyId, 3)).toBe(false);
    await setDailyCap(api.db.sql, accountId, keyId, 3);
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
    expect((await api.request(SUMMARY, { key })).status).toBe(403);
    await setDailyCap(api.db.sql, accountId, keyId, null);
    expect((await api.request(SUMMARY, { key })).status).toBe(404);
  });
});
