import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

interface EventList {
  events: { id: number; change: string; profile: string; advertiser_id: string; landing_domain_count: number }[];
  next_cursor: string | null;
}

describe('GET /api/v1/watches/{id}/events (listWatchEvents)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api?.close());

  async function addEvents(watchId: string, count: number) {
    for (let i = 1; i <= count; i++)
      await api.db.sql`
        INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
        VALUES (${watchId}, ${`AR${i}`}, ${`Advertiser ${i}`}, ${`domain-${i}.com`}, '2026-11-20', ${i})`;
  }

  it("200: a watch's events newest first, with the change and profile, paged; free", async () => {
    const { key, accountId } = await api.newKey(100);
    const domain = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    const advertiser = (await createWatch(api, key, { kind: 'advertiser', target: 'Acme' })).body as WatchBody;
    await addEvents(domain.id, 5);
    await addEvents(advertiser.id, 1);
    const first = await api.request(`/api/v1/watches/${domain.id}/events?limit=3`, { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-credits-charged')).toBe('0');
    const page = first.body as EventList;
    expect(page.events.map((event) => event.advertiser_id)).toEqual(['AR5', 'AR4', 'AR3']);
    expect(page.events.map((event) => [event.change, event.profile])).toEqual([
      ['new_advertiser', 'multi_domain_intermediary'],
      ['new_advertiser', 'few_domains'],
      ['new_advertiser', 'few_domains'],
    ]);
    const rest = await api.request(`/api/v1/watches/${domain.id}/events?cursor=${page.next_cursor}`, { key });
    const second = rest.body as EventList;
    expect(second.events.map((event) => event.advertiser_id)).toEqual(['AR2', 'AR1']);
    expect(second.next_cursor).toBeNull();
    const other = (await api.request(`/api/v1/watches/${advertiser.id}/events`, { key })).body as EventList;
    expect(other.events.map((event) => [event.change, event.profile])).toEqual([
      ['new_landing_domain', 'single_domain'],
    ]);
    expect(await api.balanceOf(accountId)).toBe(100);
  });

  it("404 for another account's watch or the other dataset's; 400 for a bad id, limit or cursor", async () => {
    const { key, accountId } = await api.newKey();
    const other = await api.newKey();
    const testKey = await testKeyOf(api, accountId);
    const watch = (await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' })).body as WatchBody;
    for (const caller of [other.key, testKey]) {
      const response = await api.request(`/api/v1/watches/${watch.id}/events`, { key: caller });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: 'watch_not_found' });
    }
    for (const [path, code] of [
      ['/api/v1/watches/xyz/events', 'invalid_watch_id'],
      [`/api/v1/watches/${watch.id}/events?limit=abc`, 'invalid_limit'],
      [`/api/v1/watches/${watch.id}/events?cursor=zzz`, 'invalid_cursor'],
    ]) {
      const response = await api.request(path, { key });
      expect(response.status, path).toBe(400);
      expect(response.body).toMatchObject({ error: code });
    }
  });
});
