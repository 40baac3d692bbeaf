import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

describe('GET /api/v1/domain', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
  });
  afterAll(async () => {
    await api.close();
  });

  it('200: distinct identifiers landing on the domain, latest crawl in UTC, has_data', async () => {
    const response = await api.request('/api/v1/domain?domain=https%3A%2F%2FWWW.Acme-Outdoor.com%2Fshop', { key });
    expect(response.status).toBe(200);
    expect(response.text).toBe(
      '{"domain":"acme-outdoor.com","advertisers":3,"last_crawled":"2026-11-18 ' +
        '04:42:10","has_data":true,"credits_charged":3,"credits_remaining":997}',
    );
  });

  it('200: a domain crawled but without ads has has_data false and advertisers 0', async () => {
    const response = await api.request('/api/v1/domain?domain=quiet-bakery.co.uk', { key });
    expect(response.body).toMatchObject({
      domain: 'quiet-bakery.co.uk',
      advertisers: 0,
      last_crawled: '2026-10-02 13:05:44',
      has_data: false,
    });
  });

  it('200: a domain with ads but never crawled has last_crawled null', async () => {
    const response = await api.request('/api/v1/domain?domain=other-brand.co.uk', { key });
    expect(response.body).toMatchObject({ advertisers: 1, last_crawled: null, has_data: true });
  });

  it('404: neither ads nor crawls; charged', async () => {
    const response = await api.request('/api/v1/domain?domain=never-heard-of.com', { key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'not_found', credits_charged: 3 });
  });
});
