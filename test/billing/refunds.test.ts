import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';

/**
 * docs/product-rules.md R6.9: a call that was charged and then failed on the server's side is refunded
 * in full, and says so. The failure is real: the table the lookup reads is taken away after the
 * debit succeeded, so PostgreSQL itself fails the query.
 */
describe('refund on a forced server error', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function withoutTable<T>(table: string, run: () => Promise<T>): Promise<T> {
    await api.db.sql.unsafe(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
    try {
      return await run();
    } finally {
      await api.db.sql.unsafe(`ALTER TABLE ${table}_gone RENAME TO ${table}`);
    }
  }

  it('a charged call whose query fails answers 500 internal_error, refunds the full price and says so', async () => {
    const { key, accountId } = await api.newKey(100);
    const response = await withoutTable('identifiers', () =>
      api.request('/api/v1/advertiser/domains?name=Acme', { key }),
    );
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: 'internal_error',
      message: expect.stringContaining('15 credits'),
      credits_refunded: 15,
    });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('100');
    expect(await api.balanceOf(accountId)).toBe(100);
    expect(await api.ledgerSum(accountId)).toBe(100);
    const entries = await api.db.sql`
      SELECT kind, amount, balance_after, endpoint, request_id, refund_of IS NOT NULL AS is_refund
      FROM ledger WHERE account_id = ${accountId} AND endpoint <> 'test-setup' ORDER BY id`;
    const requestId = response.headers.get('x-request-id');
    expect(entries).toEqual([
      {
        kind: 'charge',
        amount: -15,
        balance_after: 85,
        endpoint: 'getAdvertiserLandingDomains',
        request_id: requestId,
        is_refund: false,
      },
      {
        kind: 'refund',
        amount: 15,
        balance_after: 100,
        endpoint: 'getAdvertiserLandingDomains',
        request_id: requestId,
        is_refund: true,
      },
    ]);
  });

  it('a server error before any charge refunds nothing and says nothing was charged', async () => {
    const { key, accountId } = await api.newKey(50);
    const response = await withoutTable('accounts', () => api.request('/api/v1/advertiser?name=Acme', { key }));
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: 'internal_error',
      message: expect.stringContaining('Nothing was charged'),
      credits_refunded: 0,
    });
    expect(await api.balanceOf(accountId)).toBe(50);
    expect(await api.ledgerSum(accountId)).toBe(50);
  });

  it('a charge is refunded at most once: the ledger refuses a second refund of the same charge', async () => {
    const { accountId } = await api.newKey(100);
    const [charge] = await api.db.sql`SELECT id FROM ledger WHERE account_id = ${accountId} ORDER BY id DESC LIMIT 1`;
    const { refund } = await import('../../src/data/billing.ts');
    await expect(refund(api.db.sql, charge.id, 'r1')).resolves.toBeDefined();
    await expect(refund(api.db.sql, charge.id, 'r2')).rejects.toThrow();
    expect(await api.ledgerSum(accountId)).toBe(await api.balanceOf(accountId));
  });
});
