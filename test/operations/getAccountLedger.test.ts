import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryAfter, ledgerCursor } from '../../src/contract/ledger-cursor.ts';
import { addCredits } from '../../src/data/accounts.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { loadFixture } from '../support/fixture.ts';

interface Entry {
  id: number;
  kind: string;
  amount: number;
  balance_after: number;
}
interface LedgerBody {
  entries: Entry[];
  next_cursor: string | null;
}

describe('GET /api/v1/account/ledger', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
    await loadFixture(api.db.sql);
  });
  afterAll(() => api?.close());

  async function page(key: string, query = '') {
    return api.request(`/api/v1/account/ledger${query}`, { key });
  }

  it('200: the entries newest first, each with the balance after it; free', async () => {
    const { key, accountId } = await api.newKey(200);
    const headers = { 'X-Request-Id': 'req-12345678' };
    await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key, headers });
    await addCredits(api.db.sql, accountId, 50, 'ledger-test-payment');
    const response = await page(key);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-credits-charged')).toBe('0');
    const body = response.body as LedgerBody & { entries: Record<string, unknown>[] };
    expect(body.next_cursor).toBeNull();
    expect(body.entries.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['purchase', 50, 247],
      ['charge', -3, 197],
      ['grant', 200, 200],
    ]);
    expect(body.entries[0]).toMatchObject({
      payment_reference: 'ledger-test-payment',
      key_prefix: null,
      channel: null,
    });
    expect(body.entries[1]).toMatchObject({
      operation: 'getAdvertiserSummary',
      request_id: 'req-12345678',
      refund_of: null,
      channel: 'http',
      key_prefix: key.slice(0, 12),
    });
    expect(await api.ledgerSum(accountId)).toBe(247);
    expect(body.entries.reduce((sum, e) => sum + (e.amount as number), 0)).toBe(247);
  });

  it('pages of `limit` entries, walked by next_cursor, hold every entry once even while new ones arrive', async () => {
    const { key, accountId } = await api.newKey(200);
    for (let i = 0; i < 11; i++) await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await page(key, `?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      const body = response.body as LedgerBody;
      expect(body.entries.length).toBeLessThanOrEqual(5);
      seen.push(...body.entries.map((e) => e.id));
      cursor = body.next_cursor;
      pages++;
      // A call made between pages lands before the first page, not in the ones still to read.
      if (pages === 1) await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    } while (cursor !== null);
    const [{ before_first }] = await api.db.sql<{ before_first: number }[]>`
      SELECT count(*)::int AS before_first FROM ledger WHERE account_id = ${accountId}`;
    expect(pages).toBe(3);
    expect(seen).toHaveLength(before_first - 1);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  it('shows only the caller’s own account', async () => {
    const { key } = await api.newKey(200);
    const other = await api.newKey(200);
    await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key: other.key });
    const body = (await page(key)).body as LedgerBody;
    expect(body.entries.map((e) => e.kind)).toEqual(['grant']);
    // A cursor made from another account's entry reads this account's entries older than it: never the other's.
    const [{ id }] = await api.db.sql<{ id: number }[]>`SELECT max(id)::int AS id FROM ledger`;
    const fromOther = (await page(key, `?cursor=${ledgerCursor(id + 1)}`)).body as LedgerBody;
    expect(fromOther.entries.map((e) => e.kind)).toEqual(['grant']);
  });

  it.each([
    ['?limit=0', 'invalid_limit'],
    ['?limit=201', 'invalid_limit'],
    ['?limit=1.5', 'invalid_limit'],
    ['?limit=ten', 'invalid_limit'],
    ['?limit=', 'invalid_limit'],
    ['?limit=5&limit=6', 'invalid_limit'],
    ['?cursor=abc', 'invalid_cursor'],
    ['?cursor=bGVkZ2VyOjA', 'invalid_cursor'],
    ['?cursor=%2F%2F', 'invalid_cursor'],
    [`?cursor=${'A'.repeat(33)}`, 'invalid_cursor'],
  ])('400 %s: %s, free', async (query, error) => {
    const { key, accountId } = await api.newKey(100);
    const response = await page(key, query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error });
    expect(await api.balanceOf(accountId)).toBe(100);
  });

  it('ignores the Idempotency-Key header, even a malformed one', async () => {
    const { key } = await api.newKey(10);
    const response = await api.request('/api/v1/account/ledger', {
      key,
      headers: { 'Idempotency-Key': ' not a key ' },
    });
    expect(response.status).toBe(200);
  });

  it('the cursor is opaque and checked: it round-trips, and one altered by a byte is refused', async () => {
    expect(ledgerCursor(1041)).toBe('bGVkZ2VyOjEwNDE');
    expect(entryAfter('bGVkZ2VyOjEwNDE')).toBe(1041);
    for (const altered of ['bGVkZ2VyOjEwNDF', 'bGVkZ2VyOjEwNDE=', 'cGVkZ2VyOjEwNDE', 'bGVkZ2VyOjAxMDQx']) {
      expect(entryAfter(altered), altered).toBeNull();
    }
    const { key } = await api.newKey(100);
    expect((await page(key, '?cursor=bGVkZ2VyOjEwNDF')).body).toMatchObject({ error: 'invalid_cursor' });
  });
});
