// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { preferredMediaType } from '../../src/contract/media-types.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

const BOTH = ['application/json', 'text/csv'];
const JSON_ONLY = ['application/json'];

describe('Accept: the media type the caller prefers among those an operation offers (RFC 9110)', () => {
  it('no header, an empty one, */* or application/json: the default, JSON', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'application/*', 'APPLICATION/JSON; charset=utf-8'])
      expect([accept, preferredMediaType(accept, BOTH)]).toEqual([accept, 'application/json']);
  });

  it('text/csv, text/* or a higher weight for CSV: CSV', () => {
    for (const accept of [
      'text/csv',
      'text/*',
      'text/csv;header=present',
      'application/json;q=0.5, text/csv;q=0.9',
      'text/csv, */*;q=0.1',
      'text/html, text/*;q=0.8, application/json;q=0.7',
    ])
      expect([accept, preferredMediaType(accept, BOTH)]).toEqual([accept, 'text/csv']);
  });

  it('equal weights go to the default; the most specific range gives the weight', () => {
    expect(preferredMediaType('text/csv, application/json', BOTH)).toBe('application/json');
    expect(preferredMediaType('*/*;q=0.9, application/json;q=0.1', BOTH)).toBe('text/csv');
    expect(preferredMediaType('text/*, text/csv;q=0, application/json;q=0.5', BOTH)).toBe('application/json');
    expect(preferredMediaType('text/*, text/csv;q=0', BOTH)).toBeNull();
  });

  it('nothing acceptable: null; q=0 excludes; unreadable ranges are ignored', () => {
    expect(preferredMediaType('text/csv', JSON_ONLY)).toBeNull();
    expect(preferredMediaType('application/xml, text/html', BOTH)).toBeNull();
    expect(preferredMediaType('application/json;q=0, text/csv;q=0', BOTH)).toBeNull();
    expect(preferredMediaType('*/*;q=0', BOTH)).toBeNull();
    expect(preferredMediaType('garbage, text/csv;q=2', BOTH)).toBe('application/json');
    expect(preferredMediaType('garbage, text/csv', BOTH)).toBe('text/csv');
  });
});

describe('406 not_acceptable', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
  });
  afterAll(async () => {
    await api.close();
  });

  const NONE_ACCEPTABLE =
    'an Accept that allows none of the operation types: 406 with the supported list, free, with the balance';
  it(NONE_ACCEPTABLE, async () => {
    for (const [path, accept, supported] of [
      ['/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', 'text/csv', JSON_ONLY],
      ['/api/v1/brandbid?domain=acme-outdoor.com', 'application/xml', BOTH],
      ['/api/v1/account', 'text/html', JSON_ONLY],
    ] as const) {
      const response = await api.request(path, { key, headers: { accept } });
      expect([path, response.status, response.body.error, response.body.supported]).toEqual([
        path,
        406,
        'not_acceptable',
        supported,
      ]);
      expect(response.headers.get('x-credits-charged')).toBe('0');
      expect(response.headers.get('x-credits-remaining')).toBe('1000');
    }
  });

  it('the key comes first: an unknown key with a bad Accept is 401', async () => {
    const unknown = generateApiKey().key;
    const response = await api.request('/api/v1/advertiser?name=Acme', {
      key: unknown,
      headers: { accept: 'text/csv' },
    });
    expect(response.status).toBe(401);
  });

  it('Accept comes before the parameters: a bad Accept and no name is 406', async () => {
    const response = await api.request('/api/v1/advertiser', { key, headers: { accept: 'image/png' } });
    expect([response.status, response.body.error]).toEqual([406, 'not_acceptable']);
  });

  it('paths outside /api do not negotiate', async () => {
    expect((await api.request('/healthz', { headers: { accept: 'image/png' } })).status).toBe(200);
  });
});
