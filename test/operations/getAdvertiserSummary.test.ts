import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

describe('GET /api/v1/advertiser', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
  });
  afterAll(async () => {
    await api.close();
  });

  it(
    '200: merges identifiers by name; distinct creatives and domains; ' +
      'country by most creatives, tie to latest last_seen; the label',
    async () => {
      const response = await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
      expect(response.status).toBe(200);
      expect(response.text).toBe(
        '{"advertiser":"Acme Outdoor GmbH","advertiser_ids":["AR100","AR200"],"creatives":4,"landing_domains":2,' +
          '"last_seen":"2026-11-10","country":"AT","advertiser_type":"direct",' +
          '"credits_charged":3,"credits_remaining":997}',
      );
    },
  );

  it('200: advertiser_type is null when nobody labelled the name', async () => {
    const response = await api.request('/api/v1/advertiser?name=Clickwave%20Media%20Ltd', { key });
    expect(response.body).toMatchObject({
      advertiser_ids: ['AR300'],
      creatives: 3,
      landing_domains: 3,
      last_seen: '2026-09-02',
      country: 'GB',
      advertiser_type: null,
    });
  });

  it('200: an identifier answers to its current name (its latest observation), no longer to an old one', async () => {
    expect((await api.request('/api/v1/advertiser?name=New%20Name%20Inc', { key })).body).toMatchObject({
      advertiser_ids: ['AR400'],
      creatives: 2,
    });
    expect((await api.request('/api/v1/advertiser?name=Old%20Name%20Inc', { key })).status).toBe(404);
  });

  it('404: names are exact and case-sensitive; the lookup ran, so it is charged', async () => {
    const response = await api.request('/api/v1/advertiser?name=acme%20outdoor%20gmbh', { key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'not_found', credits_charged: 3 });
  });

  it('the same data always gives byte-identical responses (apart from the balance)', async () => {
    const first = await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    const second = await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    const strip = (text: string) => text.replace(/"credits_remaining":\d+/, '');
    expect(strip(second.text)).toBe(strip(first.text));
  });
});
