import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/data/accounts.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { loadFixture } from '../support/fixture.ts';

/** The app's clock; the ledger's times are the database's. */
const NOW = new Date('2026-11-23T15:00:00Z');

describe('GET /api/v1/account/usage', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ now: () => NOW });
    await loadFixture(api.db.sql);
  });
  afterAll(() => api?.close());

  async function usage(key: string, query = '') {
    return api.request(`/api/v1/account/usage${query}`, { key });
  }

  it('200: the last 30 days by default, every day listed, days without calls as zeros', async () => {
    const { key } = await api.newKey(100);
    const response = await usage(key);
    expect(response.status).toBe(200);
    const body = response.body as { from: string; to: string; days: { day: string; calls: number }[]; total: object };
    expect(body.to).toBe('2026-11-23');
    expect(body.from).toBe('2026-10-25');
    expect(body.days).toHaveLength(30);
    expect(body.days.every((day) => day.calls === 0)).toBe(true);
    expect(body.total).toEqual({ calls: 0, refunded_calls: 0, credits: 0 });
  });

  it('counts billed calls per day and operation: charged calls, refunded ones, and the credits they cost', async () => {
    // 200: the grant alone, so the ledger holds no set-up charge.
    const { key, accountId } = await api.newKey(200);
    await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    await api.request('/api/v1/advertiser?name=Nobody%20Here', { key });
    await api.request('/api/v1/domain?domain=acme-outdoor.com', { key });
    await api.request('/api/v1/account', { key });
    // One charge refunded, as after a failure of the service.
    const [charge] = await api.db.sql<{ id: number }[]>`
      SELECT id FROM ledger WHERE account_id = ${accountId} AND endpoint = 'getDomainSummary'`;
    await api.db.sql`
      WITH credited AS (UPDATE accounts SET balance = balance + 3 WHERE id = ${accountId} RETURNING balance)
      INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint, refund_of)
      SELECT ${accountId}, 'refund', 3, balance, 'getDomainSummary', ${charge.id} FROM credited`;
    const today = new Date().toISOString().slice(0, 10);
    const response = await usage(key, `?from=${today}&to=${today}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      from: today,
      to: today,
      total: { calls: 3, refunded_calls: 1, credits: 6 },
      days: [
        {
          day: today,
          calls: 3,
          refunded_calls: 1,
          credits: 6,
          operations: [
            { operation: 'getAdvertiserSummary', calls: 2, refunded_calls: 0, credits: 6, mcp_calls: 0 },
            { operation: 'getDomainSummary', calls: 1, refunded_calls: 1, credits: 0, mcp_calls: 0 },
          ],
        },
      ],
      daily_caps: [],
    });
  });

  it(
    "lists the account's active keys that have a daily cap, with " + "today's spend (docs/product-rules.md §14)",
    async () => {
      const { key, accountId, keyId } = await api.newKey(200);
      const other = await createApiKey(api.db.sql, accountId, { name: 'reporting script' });
      await createApiKey(api.db.sql, accountId, { name: 'uncapped' });
      await setDailyCap(api.db.sql, accountId, keyId, 300);
      await setDailyCap(api.db.sql, accountId, other.id, 30);
      await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key: other.key });
      const response = await usage(key);
      expect((response.body as { daily_caps: unknown }).daily_caps).toEqual([
        { key_prefix: other.key.slice(0, 12), name: 'reporting script', daily_cap: 30, spent_today: 3 },
        { key_prefix: key.slice(0, 12), name: null, daily_cap: 300, spent_today: 0 },
      ]);
    },
  );

  it('is free and shows only the caller’s own account', async () => {
    const { key, accountId } = await api.newKey(200);
    const other = await api.newKey(200);
    await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key: other.key });
    const today = new Date().toISOString().slice(0, 10);
    const response = await usage(key, `?from=${today}&to=${today}`);
    expect(response.body).toMatchObject({ total: { calls: 0, refunded_calls: 0, credits: 0 } });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('200');
    expect(await api.balanceOf(accountId)).toBe(200);
    expect(await api.ledgerSum(accountId)).toBe(200);
    const [{ rows }] = await api.db.sql<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM ledger WHERE account_id = ${accountId}`;
    expect(rows).toBe(1); // the grant: no ledger row for the call
  });

  it.each([
    ['?from=2026-02-30', 'invalid_from'],
    ['?from=2026-1-01', 'invalid_from'],
    ['?from=', 'invalid_from'],
    ['?from=2026-11-01&from=2026-11-02', 'invalid_from'],
    ['?to=tomorrow', 'invalid_to'],
    ['?to=%FF', 'invalid_to'],
    ['?to=2026-11-23&to=2026-11-23', 'invalid_to'],
    ['?from=1999-12-31', 'invalid_from'],
    ['?from=0000-01-01&to=0000-01-02', 'invalid_from'],
    ['?to=10000-01-01', 'invalid_to'],
    ['?from=%EF%BC%92026-11-01', 'invalid_from'], // a full-width digit
    ['?from=2026-11-20&to=2026-11-10', 'invalid_range'],
    ['?from=2025-01-01&to=2026-01-02', 'invalid_range'],
    ['?from=2026-11-24', 'invalid_range'],
    ['?from=2000-01-01&to=9999-12-31', 'invalid_range'],
  ])('400 %s: %s, free', async (query, error) => {
    const { key, accountId } = await api.newKey(100);
    const response = await usage(key, query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error });
    expect(await api.balanceOf(accountId)).toBe(100);
  });

  it('366 days is the longest range; a leap year fits', async () => {
    const { key } = await api.newKey(100);
    const response = await usage(key, '?from=2024-01-01&to=2024-12-31');
    expect(response.status).toBe(200);
    expect((response.body as { days: unknown[] }).days).toHaveLength(366);
  });

  it('every day of 2000 to 9999 works: a range ending 9999-12-31, a default range from before 2000', async () => {
    const { key } = await api.newKey(100);
    const end = await usage(key, '?from=9999-12-01&to=9999-12-31');
    expect(end.status).toBe(200);
    const endDays = (end.body as { days: { day: string }[] }).days.map(({ day }) => day);
    expect([endDays.length, endDays[0], endDays.at(-1)]).toEqual([31, '9999-12-01', '9999-12-31']);
    const start = await usage(key, '?to=2000-01-05');
    expect(start.body).toMatchObject({ from: '1999-12-07', to: '2000-01-05', days: expect.any(Array) });
    expect((start.body as { days: unknown[] }).days).toHaveLength(30);
  });

  it('the range is checked before its days are made: 8,000 years are refused at once', async () => {
    const { key } = await api.newKey(100);
    const started = performance.now();
    const response = await usage(key, '?from=2000-01-01&to=9999-12-31');
    expect(response.body).toEqual({
      error: 'invalid_range',
      message: 'The range from 2000-01-01 to 9999-12-31 is 2921940 days; ask for 366 at most.',
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('ignores the Idempotency-Key header, even a malformed one', async () => {
    const { key } = await api.newKey(10);
    const response = await api.request('/api/v1/account/usage', { key, headers: { 'Idempotency-Key': ' not a key ' } });
    expect(response.status).toBe(200);
  });

  it('401 with an unknown key, even with a bad parameter', async () => {
    const response = await api.request('/api/v1/account/usage?from=nope', {
      key: 'alk_000000000000000000000000000000000000aaaa',
    });
    expect(response.status).toBe(401);
  });
});
