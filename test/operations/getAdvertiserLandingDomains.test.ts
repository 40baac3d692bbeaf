import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestObservations } from '../../src/ingest/index.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

describe('GET /api/v1/advertiser/domains', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    // An intermediary with 502 landing domains: one creative each, plus a heavier one.
    const rows = Array.from({ length: 502 }, (_, i) => ({
      creative_id: `wide-${i}`,
      advertiser_id: 'AR900',
      advertiser_name: 'Wide Reach Media',
      country: 'NL',
      landing_url: `https://brand-${String(i).padStart(3, '0')}.com/`,
      seen_on: i % 2 === 0 ? '2026-11-01' : '2026-10-01',
    }));
    rows.push({
      creative_id: 'wide-extra',
      advertiser_id: 'AR900',
      advertiser_name: 'Wide Reach Media',
      country: 'NL',
      landing_url: 'https://brand-501.com/',
      seen_on: '2026-01-01',
    });
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, rows, { today: NOW })));
  });
  afterAll(async () => {
    await api.close();
  });

  it("200: each domain with the name's distinct creatives and last date seen there, by creatives desc", async () => {
    const response = await api.request('/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH', { key });
    expect(response.status).toBe(200);
    expect(response.text).toBe(
      '{"advertiser":"Acme Outdoor GmbH","landing_domain_count":2,"landing_domains":[' +
        '{"domain":"acme-outdoor.com","creatives":3,"last_seen":"2026-11-10"},' +
        '{"domain":"acme-outdoor.de","creatives":1,"last_seen":"2026-11-02"}],' +
        '"truncated":false,"credits_charged":15,"credits_remaining":985}',
    );
  });

  it('200: capped at 500 with the full count and truncated; ties by last_seen desc then domain ascending', async () => {
    const { body } = await api.request('/api/v1/advertiser/domains?name=Wide%20Reach%20Media', { key });
    expect(body.landing_domain_count).toBe(502);
    expect(body.landing_domains).toHaveLength(500);
    expect(body.truncated).toBe(true);
    expect(body.landing_domains[0]).toEqual({ domain: 'brand-501.com', creatives: 2, last_seen: '2026-10-01' });
    expect(body.landing_domains.slice(1, 3).map((d: any) => d.domain)).toEqual(['brand-000.com', 'brand-002.com']);
    // 251 even-numbered domains were last seen on 2026-11-01, so they come before the odd ones.
    expect(body.landing_domains[251]).toEqual({ domain: 'brand-500.com', creatives: 1, last_seen: '2026-11-01' });
    expect(body.landing_domains[252]).toEqual({ domain: 'brand-001.com', creatives: 1, last_seen: '2026-10-01' });
    expect(body.landing_domains[499].domain).toBe('brand-495.com');
  });

  it('404: unknown advertiser; charged 15', async () => {
    const response = await api.request('/api/v1/advertiser/domains?name=Nobody', { key });
    expect(response.status).toBe(404);
    expect(response.body.credits_charged).toBe(15);
  });
});
