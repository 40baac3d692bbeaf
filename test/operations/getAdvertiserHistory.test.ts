import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

describe('GET /api/v1/advertiser/history', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
  });
  afterAll(async () => {
    await api.close();
  });

  it(
    '200: window starts at the first observed month; ascending; ' +
      'distinct creatives and domains per month over all identifiers',
    async () => {
      const response = await api.request('/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH', { key });
      expect(response.status).toBe(200);
      expect(response.text).toBe(
        '{"advertiser":"Acme Outdoor GmbH","window_start":"2026-10-01","months":[' +
          '{"month":"2026-10","creatives":1,"domains":1},{"month":"2026-11","creatives":3,"domains":2}],' +
          '"credits_charged":9,"credits_remaining":991}',
      );
    },
  );

  it(
    '200: the window is at most the current month and ' + 'the 35 before it; months without activity are zeros',
    async () => {
      const response = await api.request('/api/v1/advertiser/history?name=Clickwave%20Media%20Ltd', { key });
      const { window_start, months } = response.body;
      expect(window_start).toBe('2024-01-01');
      expect(months).toHaveLength(35);
      expect(months[0]).toEqual({ month: '2024-01', creatives: 1, domains: 1 });
      expect(months[1]).toEqual({ month: '2024-02', creatives: 0, domains: 0 });
      expect(months.at(-1)).toEqual({ month: '2026-11', creatives: 0, domains: 0 });
      expect(months.find((m: any) => m.month === '2026-09')).toEqual({ month: '2026-09', creatives: 2, domains: 2 });
    },
  );

  it('200: activity all older than the window gives the nominal window_start and 36 zero months', async () => {
    const response = await api.request('/api/v1/advertiser/history?name=Dormant%20Ltd', { key });
    expect(response.body.window_start).toBe('2023-12-01');
    expect(response.body.months).toHaveLength(36);
    expect(response.body.months.every((m: any) => m.creatives === 0 && m.domains === 0)).toBe(true);
    expect(response.body.months[0].month).toBe('2023-12');
  });

  it('404: unknown advertiser; charged 9', async () => {
    const response = await api.request('/api/v1/advertiser/history?name=Nobody', { key });
    expect(response.status).toBe(404);
    expect(response.body.credits_charged).toBe(9);
  });
});
