import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { spec } from '../support/contract.ts';

/** Every billed operation with a query that runs (and finds nothing: a data 404 costs the price too). */
const OPERATIONS = [
  { operationId: 'getAdvertiserSummary', path: '/api/v1/advertiser?name=Nobody' },
  { operationId: 'getDomainSummary', path: '/api/v1/domain?domain=nothing-here.com' },
  { operationId: 'getAdvertiserHistory', path: '/api/v1/advertiser/history?name=Nobody' },
  { operationId: 'getAdvertiserLandingDomains', path: '/api/v1/advertiser/domains?name=Nobody' },
  { operationId: 'getBrandBidReport', path: '/api/v1/brandbid?domain=nothing-here.com' },
];

function specPrice(operationId: string): number {
  for (const item of Object.values<any>(spec.paths)) {
    if (item.get?.operationId === operationId) return item.get['x-credit-cost'];
  }
  throw new Error(`no operation ${operationId}`);
}

describe('credits and the ledger (docs/product-rules.md §6)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("prices are the endpoint table's and come from x-credit-cost in the spec", () => {
    expect(OPERATIONS.map((op) => specPrice(op.operationId))).toEqual([3, 3, 9, 15, 60]);
    expect(specPrice('getAccount')).toBe(0);
  });

  it(
    'a data 404 is charged the price, with credits in body and ' +
      'headers, and a ledger row naming the endpoint and request id',
    async () => {
      const { key, accountId } = await api.newKey();
      let balance = 200;
      for (const { operationId, path } of OPERATIONS) {
        const price = specPrice(operationId);
        const response = await api.request(path, { key });
        balance -= price;
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          error: 'not_found',
          message: expect.any(String),
          credits_charged: price,
          credits_remaining: balance,
        });
        expect(response.headers.get('x-credits-charged')).toBe(String(price));
        expect(response.headers.get('x-credits-remaining')).toBe(String(balance));
        const [entry] = await api.db.sql`SELECT * FROM ledger WHERE account_id = ${accountId} ORDER BY id DESC LIMIT 1`;
        expect(entry).toMatchObject({
          kind: 'charge',
          amount: -price,
          balance_after: balance,
          endpoint: operationId,
          request_id: response.headers.get('x-request-id'),
        });
      }
      expect(balance).toBe(110);
      expect(await api.balanceOf(accountId)).toBe(110);
      expect(await api.ledgerSum(accountId)).toBe(110);
    },
  );

  it('the account endpoint is free: no debit, no ledger row, credit headers 0 and the balance', async () => {
    const { key, accountId } = await api.newKey(42);
    const before = await api.db.sql`SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId}`;
    const response = await api.request('/api/v1/account', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key_prefix: key.slice(0, 12), balance: 42 });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('42');
    const after = await api.db.sql`SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId}`;
    expect(after[0].n).toBe(before[0].n);
  });

  it(
    '402 insufficient_credits: required and balance in ' + 'the body, headers 0 and the balance, nothing charged',
    async () => {
      const { key, accountId } = await api.newKey(59);
      const response = await api.request('/api/v1/brandbid?domain=acme.com', { key });
      expect(response.status).toBe(402);
      expect(response.body).toEqual({
        error: 'insufficient_credits',
        message: expect.any(String),
        required: 60,
        balance: 59,
      });
      expect(response.headers.get('x-credits-charged')).toBe('0');
      expect(response.headers.get('x-credits-remaining')).toBe('59');
      expect(await api.balanceOf(accountId)).toBe(59);
      expect(await api.ledgerSum(accountId)).toBe(59);
      // The cheaper call still fits.
      expect((await api.request('/api/v1/domain?domain=acme.com', { key })).status).toBe(404);
      expect(await api.balanceOf(accountId)).toBe(56);
    },
  );

  it('a balance of exactly the price pays, and leaves 0', async () => {
    const { key, accountId } = await api.newKey(15);
    const response = await api.request('/api/v1/advertiser/domains?name=Nobody', { key });
    expect(response.body.credits_remaining).toBe(0);
    expect(await api.balanceOf(accountId)).toBe(0);
    expect((await api.request('/api/v1/advertiser?name=Nobody', { key })).status).toBe(402);
  });

  it('400 is free: headers 0 and the current balance, no ledger row', async () => {
    const { key, accountId } = await api.newKey(100);
    const response = await api.request('/api/v1/advertiser?name=', { key });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('100');
    expect(await api.ledgerSum(accountId)).toBe(100);
  });

  it('order of checks: parameters before balance (400 beats 402)', async () => {
    const { key } = await api.newKey(0);
    const response = await api.request('/api/v1/brandbid?domain=localhost', { key });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_domain');
  });

  it(
    'concurrency: 50 parallel calls on a balance that covers 7 give ' +
      'exactly 7 successes, balance 0, ledger sum equal to the balance',
    async () => {
      const { key, accountId } = await api.newKey(21);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => api.request('/api/v1/advertiser?name=Nobody', { key })),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 404)).toHaveLength(7);
      expect(statuses.filter((s) => s === 402)).toHaveLength(43);
      expect(await api.balanceOf(accountId)).toBe(0);
      expect(await api.ledgerSum(accountId)).toBe(0);
      const remaining = responses
        .filter((r) => r.status === 404)
        .map((r) => r.body.credits_remaining)
        .sort((a, b) => a - b);
      expect(remaining).toEqual([0, 3, 6, 9, 12, 15, 18]);
      for (const r of responses.filter((r) => r.status === 402)) expect(r.body.balance).toBeLessThan(3);
    },
  );

  it(
    'concurrency across operations and keys of one ' + 'account: never below zero, every charge in the ledger',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => api.request(OPERATIONS[i % OPERATIONS.length].path, { key })),
      );
      const charged = responses.filter((r) => r.status === 404).reduce((sum, r) => sum + r.body.credits_charged, 0);
      expect(charged).toBeLessThanOrEqual(100);
      expect(await api.balanceOf(accountId)).toBe(100 - charged);
      expect(await api.ledgerSum(accountId)).toBe(100 - charged);
      const [{ n }] = await api.db
        .sql`SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId} AND kind = 'charge'
        AND endpoint <> 'test-setup'`;
      expect(n).toBe(responses.filter((r) => r.status === 404).length);
    },
  );
});
