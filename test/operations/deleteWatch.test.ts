import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

describe('DELETE /api/v1/watches/{id} (deleteWatch)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api?.close());

  it('204 without a body; the watch is gone (404) and a second delete is 404; its events stay', async () => {
    const { key, accountId } = await api.newKey(100);
    const watch = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    await api.db.sql`
      INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
      VALUES (${watch.id}, 'AR1', 'Someone', 'acme-outdoor.com', '2026-11-20', 1)`;
    const response = await api.request(`/api/v1/watches/${watch.id}`, { key, method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(await api.balanceOf(accountId)).toBe(100);
    expect((await api.request(`/api/v1/watches/${watch.id}`, { key })).status).toBe(404);
    expect((await api.request(`/api/v1/watches/${watch.id}/events`, { key })).status).toBe(404);
    const again = await api.request(`/api/v1/watches/${watch.id}`, { key, method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'watch_not_found' });
    const [{ events }] = await api.db.sql<{ events: number }[]>`
      SELECT count(*)::int AS events FROM watch_events WHERE watch_id = ${watch.id}`;
    expect(events).toBe(1);
    const list = await api.request('/api/v1/watches', { key });
    expect((list.body as { watches: unknown[] }).watches).toEqual([]);
  });

  it("404 for another account's watch and for the other dataset's; the watch stays", async () => {
    const { key, accountId } = await api.newKey();
    const other = await api.newKey();
    const testKey = await testKeyOf(api, accountId);
    const watch = (await createWatch(api, key, { kind: 'advertiser', target: 'Acme Outdoor' })).body as WatchBody;
    for (const caller of [other.key, testKey]) {
      const response = await api.request(`/api/v1/watches/${watch.id}`, { key: caller, method: 'DELETE' });
      expect(response.status).toBe(404);
    }
    expect((await api.request(`/api/v1/watches/${watch.id}`, { key })).status).toBe(200);
  });

  it('400 invalid_watch_id, 401 without a valid key, 406 for an Accept without JSON', async () => {
    const { key } = await api.newKey();
    const bad = await api.request('/api/v1/watches/not-a-uuid', { key, method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_watch_id' });
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.request(`/api/v1/watches/${id}`, { method: 'DELETE' })).status).toBe(401);
    const csv = await api.request(`/api/v1/watches/${id}`, { key, method: 'DELETE', headers: { Accept: 'text/csv' } });
    expect(csv.status).toBe(406);
  });
});
