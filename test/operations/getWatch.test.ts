import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

describe('GET /api/v1/watches/{id} (getWatch)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api?.close());

  it('200: the live watch of the account, free', async () => {
    const { key, accountId } = await api.newKey(100);
    const created = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    const response = await api.request(`/api/v1/watches/${created.id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(await api.balanceOf(accountId)).toBe(100);
    const head = await api.request(`/api/v1/watches/${created.id}`, { key, method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it("404 watch_not_found: unknown, another account's, deleted, or of the other dataset", async () => {
    const { key, accountId } = await api.newKey();
    const other = await api.newKey();
    const testKey = await testKeyOf(api, accountId);
    const live = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    const sandbox = (await createWatch(api, testKey, { kind: 'domain', target: 'globex.com' })).body as WatchBody;
    const asked: [string, string][] = [
      [key, '00000000-0000-4000-8000-000000000000'],
      [other.key, live.id],
      [testKey, live.id],
      [key, sandbox.id],
    ];
    for (const [caller, id] of asked) {
      const response = await api.request(`/api/v1/watches/${id}`, { key: caller });
      expect(response.status, id).toBe(404);
      expect(response.body).toMatchObject({ error: 'watch_not_found' });
    }
    expect((await api.request(`/api/v1/watches/${sandbox.id}`, { key: testKey })).status).toBe(200);
    await api.request(`/api/v1/watches/${live.id}`, { key, method: 'DELETE' });
    expect((await api.request(`/api/v1/watches/${live.id}`, { key })).status).toBe(404);
  });

  it('400 invalid_watch_id for an id that is not a lower-case UUID; free, after the key', async () => {
    const { key } = await api.newKey();
    for (const id of [
      'abc',
      '3F1D2C4E-8A7B-4C6D-9E0F-1A2B3C4D5E6F',
      '3f1d2c4e8a7b4c6d9e0f1a2b3c4d5e6f',
      '%00',
      "1'--",
    ]) {
      const response = await api.request(`/api/v1/watches/${id}`, { key });
      expect(response.status, id).toBe(400);
      expect(response.body).toMatchObject({ error: 'invalid_watch_id' });
      expect(response.headers.get('x-credits-charged')).toBe('0');
    }
    expect((await api.request('/api/v1/watches/abc', { key: 'alk_unknown' })).status).toBe(401);
  });

  it('404 for a path below a watch that the contract does not have; 405 with Allow for other methods', async () => {
    const { key } = await api.newKey();
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.request(`/api/v1/watches/${id}/nothing`, { key })).status).toBe(404);
    const response = await api.request(`/api/v1/watches/${id}`, { key, method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, DELETE, HEAD');
  });
});
