import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

interface WatchList {
  watches: WatchBody[];
  next_cursor: string | null;
}

describe('GET /api/v1/watches (listWatches)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api?.close());

  it("200: the key's dataset's live watches, newest first, paged by next_cursor; free", async () => {
    const { key, accountId } = await api.newKey(100);
    const testKey = await testKeyOf(api, accountId);
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        ((await createWatch(api, key, { kind: 'advertiser', target: `Advertiser ${i}` })).body as WatchBody).id,
      );
    await createWatch(api, testKey, { kind: 'domain', target: 'sandbox-only.com' });
    await api.request(`/api/v1/watches/${made[3]}`, { key, method: 'DELETE' });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await api.request(`/api/v1/watches?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-credits-charged')).toBe('0');
      const body = response.body as WatchList;
      seen.push(...body.watches.map((watch) => watch.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(2);
    expect(seen).toEqual(made.filter((_, i) => i !== 3).reverse());
    expect(await api.balanceOf(accountId)).toBe(100);
    const sandbox = (await api.request('/api/v1/watches', { key: testKey })).body as WatchList;
    expect(sandbox.watches.map((watch) => [watch.target, watch.sandbox])).toEqual([['sandbox-only.com', true]]);
    const other = await api.newKey();
    expect((await api.request('/api/v1/watches', { key: other.key })).body).toEqual({ watches: [], next_cursor: null });
  });

  it('400 invalid_limit and invalid_cursor; 401 without a key', async () => {
    const { key } = await api.newKey();
    for (const [query, code] of [
      ['?limit=0', 'invalid_limit'],
      ['?limit=201', 'invalid_limit'],
      ['?cursor=made-up', 'invalid_cursor'],
    ]) {
      const response = await api.request(`/api/v1/watches${query}`, { key });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: code });
    }
    expect((await api.request('/api/v1/watches')).status).toBe(401);
  });

  it("a watch is the account's: another key of the account sees it, and it stays when its key is revoked", async () => {
    const { key, accountId, keyId } = await api.newKey();
    const watch = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    const second = (await createApiKey(api.db.sql, accountId)).key;
    await revokeApiKey(api.db.sql, keyId);
    expect((await api.request('/api/v1/watches', { key })).status).toBe(401);
    const list = (await api.request('/api/v1/watches', { key: second })).body as WatchList;
    expect(list.watches.map((each) => each.id)).toEqual([watch.id]);
    const [stored] = await api.db.sql`SELECT key_id FROM watches WHERE id = ${watch.id}`;
    expect(stored.key_id).toBe(keyId);
  });
});

describe('the watches under the per-key rate limit', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ rateLimit: { requests: 3, windowSeconds: 60 } });
  });
  afterAll(() => api?.close());

  it('every watch call counts towards the key quota; over it, 429 rate_limited, free', async () => {
    const { key } = await api.newKey();
    const created = await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' });
    expect(created.headers.get('ratelimit')).toMatch(/^"per-key";r=2;t=\d+$/);
    const id = (created.body as WatchBody).id;
    expect((await api.request(`/api/v1/watches/${id}`, { key })).status).toBe(200);
    expect((await api.request('/api/v1/watches', { key })).status).toBe(200);
    const limited = await api.request(`/api/v1/watches/${id}`, { key, method: 'DELETE' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited' });
    expect((await createWatch(api, key, { kind: 'domain', target: 'globex.com' })).status).toBe(429);
  });
});
