import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestObservations } from '../../src/ingest/index.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

/** Names beside the fixture's, for ranks the fixture has no example of. */
const o = (creative_id: string, advertiser_id: string, advertiser_name: string, seen_on = '2026-11-01') => ({
  creative_id,
  advertiser_id,
  advertiser_name,
  country: 'FR',
  landing_url: `https://${creative_id}.example.com/`,
  seen_on,
});
const EXTRA = [
  o('s1', 'AR901', 'acme outdoor gmbh'),
  o('s2', 'AR902', 'ACME Outdoor GmbH & Co. KG'),
  o('s3', 'AR903', 'Écoles Müller'),
  o('s4', 'AR904', 'Acme Outdoors Gmbh'),
  o('w1', 'AR911', 'Сбербанк России'),
  o('w2', 'AR912', 'Dąb Żywność'),
  o('w3', 'AR913', 'ΟΔΥΣΣΕΥΣ Α.Ε.'),
  o('w4', 'AR914', '(주)삼성전자'),
  o('w5', 'AR915', 'ＡＢＣ Ｍａｒｔ'),
  ...Array.from({ length: 24 }, (_, i) => o(`p${i}`, `AR95${String(i).padStart(2, '0')}`, `Prefix Brand ${i}`)),
];

const search = (q: string) => `/api/v1/advertisers/search?q=${encodeURIComponent(q)}`;

describe('GET /api/v1/advertisers/search', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, EXTRA, { today: NOW })));
  });
  afterAll(async () => {
    await api.close();
  });

  it('200: exact name first, then equal ignoring case, then prefix, then similar; 1 credit', async () => {
    const response = await api.request(search('Acme Outdoor GmbH'), { key });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-credits-charged')).toBe('1');
    const body = response.body as { advertisers: { advertiser: string; match: string }[] };
    expect(body.advertisers.map(({ advertiser, match }) => [advertiser, match])).toEqual([
      ['Acme Outdoor GmbH', 'exact'],
      ['acme outdoor gmbh', 'case_insensitive'],
      ['ACME Outdoor GmbH & Co. KG', 'prefix'],
      ['Acme Outdoors Gmbh', 'similar'],
    ]);
    expect(body).toMatchObject({ q: 'Acme Outdoor GmbH', truncated: false, credits_charged: 1 });
  });

  it('200: each advertiser merges its identifiers as the advertiser summary does', async () => {
    const response = await api.request(search('Acme Outdoor GmbH'), { key });
    const [first] = (response.body as { advertisers: unknown[] }).advertisers;
    expect(JSON.stringify(first)).toBe(
      '{"advertiser":"Acme Outdoor GmbH","match":"exact","advertiser_ids":["AR100","AR200"],' +
        '"creatives":4,"country":"AT","last_seen":"2026-11-10"}',
    );
  });

  it('200: accents of Latin letters and case are ignored, surrounding white space too', async () => {
    const response = await api.request(search('  ecoles muller '), { key });
    expect(response.body).toMatchObject({
      q: '  ecoles muller ',
      advertisers: [{ advertiser: 'Écoles Müller', match: 'case_insensitive', advertiser_ids: ['AR903'] }],
    });
  });

  it('200: case, accents and compatibility forms are ignored in every script', async () => {
    for (const [q, advertiser, match] of [
      ['сбербанк', 'Сбербанк России', 'prefix'],
      ['СБЕРБАНК РОССИИ', 'Сбербанк России', 'case_insensitive'],
      ['Dab Zywnosc', 'Dąb Żywność', 'case_insensitive'],
      ['οδυσσεύς α.ε.', 'ΟΔΥΣΣΕΥΣ Α.Ε.', 'case_insensitive'],
      ['㈜삼성전자', '(주)삼성전자', 'case_insensitive'],
      ['abc mart', 'ＡＢＣ Ｍａｒｔ', 'case_insensitive'],
      ['E\u0301coles  muller', 'Écoles Müller', 'case_insensitive'],
    ]) {
      const response = await api.request(search(q), { key });
      const { advertisers } = response.body as { advertisers: { advertiser: string; match: string }[] };
      expect([q, advertisers[0]?.advertiser, advertisers[0]?.match]).toEqual([q, advertiser, match]);
    }
  });

  it('200: a typo finds the name by similarity', async () => {
    const response = await api.request(search('Clickwav Media'), { key });
    expect(response.body).toMatchObject({ advertisers: [{ advertiser: 'Clickwave Media Ltd', match: 'similar' }] });
  });

  it('200: at most 20 names, in key order within a rank, and truncated when more matched', async () => {
    const response = await api.request(search('prefix brand'), { key });
    const body = response.body as { advertisers: { advertiser: string; match: string }[]; truncated: boolean };
    expect(body.advertisers).toHaveLength(20);
    expect(body.truncated).toBe(true);
    const expected = Array.from({ length: 24 }, (_, i) => `Prefix Brand ${i}`)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
      .slice(0, 20);
    expect(body.advertisers.map((match) => match.advertiser)).toEqual(expected);
    expect(new Set(body.advertisers.map((match) => match.match))).toEqual(new Set(['prefix']));
  });

  it('200: nothing matches: an empty list, still charged', async () => {
    const response = await api.request(search('zzqxv'), { key });
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/^\{"q":"zzqxv","advertisers":\[\],"truncated":false,"credits_charged":1,/);
  });

  it('200: a q no stored name can hold (NUL, a lone surrogate) matches nothing and is no 500', async () => {
    for (const q of ['ac%00me', 'Acme%ED%A0%80']) {
      const response = await api.request(`/api/v1/advertisers/search?q=${q}`, { key });
      expect([response.status, q]).toEqual([q.includes('%ED') ? 400 : 200, q]);
    }
  });

  it('400: q absent, blank, shorter than 2 or longer than 200 characters, or given twice; free', async () => {
    const balance = async () =>
      Number((await api.request('/api/v1/account', { key })).headers.get('x-credits-remaining'));
    const before = await balance();
    for (const [path, code] of [
      ['/api/v1/advertisers/search', 'missing_q'],
      [search(''), 'missing_q'],
      [search('   '), 'missing_q'],
      [search('a'), 'invalid_q'],
      [search('x'.repeat(201)), 'invalid_q'],
      [`${search('acme')}&q=other`, 'invalid_q'],
      ['/api/v1/advertisers/search?q=%FF%FF', 'invalid_q'],
    ]) {
      const response = await api.request(path, { key });
      expect([response.status, (response.body as { error: string }).error, path]).toEqual([400, code, path]);
    }
    expect(await balance()).toBe(before);
    expect((await api.request(search('ab'), { key })).status).toBe(200);
    expect((await api.request(search('é'.repeat(200)), { key })).status).toBe(200);
  });
});

describe('did you mean: the suggestions of a data 404', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, EXTRA, { today: NOW })));
  });
  afterAll(async () => {
    await api.close();
  });

  it('404 of a name: up to 5 names found by the search, after the credits, at the same price', async () => {
    for (const [path, price] of [
      ['/api/v1/advertiser', 3],
      ['/api/v1/advertiser/history', 9],
      ['/api/v1/advertiser/domains', 15],
    ] as const) {
      const response = await api.request(`${path}?name=${encodeURIComponent('acme outdoor')}`, { key });
      expect(response.status).toBe(404);
      expect(response.headers.get('x-credits-charged')).toBe(String(price));
      expect(response.text).toMatch(
        new RegExp(
          '^\\{"error":"not_found","message":"No advertiser is named \\\\"acme outdoor\\\\".",' +
            `"credits_charged":${price},` +
            '"credits_remaining":\\d+,"suggestions":\\["Acme Outdoor GmbH","acme outdoor gmbh",' +
            '"ACME Outdoor GmbH & Co. KG","Acme Outdoors Gmbh"\\]\\}$',
        ),
      );
    }
  });

  it('404 of a domain: root domains with ads that resemble it', async () => {
    for (const path of ['/api/v1/domain', '/api/v1/brandbid']) {
      const response = await api.request(`${path}?domain=acme-outdor.com`, { key });
      expect(response.status).toBe(404);
      expect((response.body as { suggestions: string[] }).suggestions[0]).toBe('acme-outdoor.com');
    }
  });

  it('404 with nothing alike: the body is the plain data 404, without suggestions', async () => {
    const response = await api.request('/api/v1/advertiser?name=Zzyzx%20Qwv', { key });
    expect(response.status).toBe(404);
    expect(response.text).toMatch(
      new RegExp(
        '^\\{"error":"not_found","message":"No advertiser is named \\\\"Zzyzx Qwv\\\\".",' +
          '"credits_charged":3,"credits_remaining":\\d+\\}$',
      ),
    );
    const domain = await api.request('/api/v1/domain?domain=zzyzx-qwv.org', { key });
    expect(domain.body).not.toHaveProperty('suggestions');
  });
});
