import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestObservations } from '../../src/ingest/index.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

describe('GET /api/v1/brandbid', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    // 103 identifiers send one ad each to crowded-brand.com.
    const rows = Array.from({ length: 103 }, (_, i) => ({
      creative_id: `crowd-${i}`,
      advertiser_id: `AR7${String(i).padStart(3, '0')}`,
      advertiser_name: `Crowd ${i}`,
      country: 'FR',
      landing_url: 'https://crowded-brand.com/',
      seen_on: '2026-11-01',
    }));
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, rows, { today: NOW })));
  });
  afterAll(async () => {
    await api.close();
  });

  it(
    '200: one row per identifier, with its creatives and ' + 'dates on this domain and its whole footprint and profile',
    async () => {
      const response = await api.request('/api/v1/brandbid?domain=www.acme-outdoor.com', { key });
      expect(response.status).toBe(200);
      expect(response.text).toBe(
        '{"domain":"acme-outdoor.com","advertiser_count":3,"advertisers":[' +
          '{"advertiser":"Acme Outdoor ' +
          'GmbH","advertiser_id":"AR200","creatives":2,"first_seen":"2026-11-10",' +
          '"last_seen":"2026-11-10","landing_domain_count":1,"profile":"single_domain"},' +
          '{"advertiser":"Acme Outdoor ' +
          'GmbH","advertiser_id":"AR100","creatives":1,"first_seen":"2026-10-05",' +
          '"last_seen":"2026-10-06","landing_domain_count":2,"profile":"few_domains"},' +
          '{"advertiser":"Clickwave Media ' +
          'Ltd","advertiser_id":"AR300","creatives":1,"first_seen":"2026-09-01",' +
          '"last_seen":"2026-09-01","landing_domain_count":3,"profile":"few_domains"}],' +
          '"credits_charged":60,"credits_remaining":940}',
      );
    },
  );

  it(
    '200: capped at 100 rows; advertiser_count is the full count and ' +
      "equals the domain summary's advertisers; ties by advertiser_id",
    async () => {
      const { body } = await api.request('/api/v1/brandbid?domain=crowded-brand.com', { key });
      expect(body.advertiser_count).toBe(103);
      expect(body.advertisers).toHaveLength(100);
      expect(body.advertisers.slice(0, 2).map((a: any) => a.advertiser_id)).toEqual(['AR7000', 'AR7001']);
      expect(body.advertisers.at(-1).advertiser_id).toBe('AR7099');
      const summary = await api.request('/api/v1/domain?domain=crowded-brand.com', { key });
      expect(summary.body.advertisers).toBe(103);
    },
  );

  it('200: a domain crawled but without ads has advertiser_count 0 and an empty list', async () => {
    const { body } = await api.request('/api/v1/brandbid?domain=quiet-bakery.co.uk', { key });
    expect(body).toMatchObject({ domain: 'quiet-bakery.co.uk', advertiser_count: 0, advertisers: [] });
  });

  it('404: neither ads nor crawls; charged 60', async () => {
    const response = await api.request('/api/v1/brandbid?domain=never-heard-of.com', { key });
    expect(response.status).toBe(404);
    expect(response.body.credits_charged).toBe(60);
  });
});
