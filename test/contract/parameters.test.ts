import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as routes from '../../generated/routes.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { checkQueryParameter, queryParameters } from '../../src/contract/parameters.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

const NAME_PATHS = ['/api/v1/advertiser', '/api/v1/advertiser/history', '/api/v1/advertiser/domains'];
const DOMAIN_PATHS = ['/api/v1/domain', '/api/v1/brandbid'];

describe('parameters (docs/product-rules.md §3)', () => {
  let api: TestApi;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    api = await createTestApi();
    ({ key, accountId } = await api.newKey(1000));
  });
  afterAll(async () => {
    await api.close();
  });

  async function expectError(path: string, error: string) {
    const response = await api.request(path, { key });
    expect(response.status, path).toBe(400);
    expect(response.body, path).toEqual({ error, message: expect.any(String) });
  }

  it('name absent, empty or white space only: missing_name', async () => {
    for (const path of NAME_PATHS) {
      await expectError(path, 'missing_name');
      await expectError(`${path}?name=`, 'missing_name');
      await expectError(`${path}?name=%20%20`, 'missing_name');
      await expectError(`${path}?name=%09%0A%E2%80%83%C2%A0`, 'missing_name'); // tab, LF, em space, NBSP
      await expectError(`${path}?Name=Acme`, 'missing_name'); // parameter names are case-sensitive
    }
  });

  it('name over 512 code points: invalid_name; 512 code points of astral characters are fine', async () => {
    for (const path of NAME_PATHS) {
      await expectError(`${path}?name=${'a'.repeat(513)}`, 'invalid_name');
      const astral = encodeURIComponent('😀'.repeat(512)); // 1024 UTF-16 units, 512 code points
      expect((await api.request(`${path}?name=${astral}`, { key })).status).toBe(404);
      expect((await api.request(`${path}?name=${'a'.repeat(512)}`, { key })).status).toBe(404);
    }
  });

  it('name given twice (whatever the values): invalid_name', async () => {
    for (const path of NAME_PATHS) {
      await expectError(`${path}?name=Acme&name=Acme`, 'invalid_name');
      await expectError(`${path}?name=&name=`, 'invalid_name');
    }
  });

  it('name: white space only wins over too long', async () => {
    await expectError(`/api/v1/advertiser?name=${'%20'.repeat(600)}`, 'missing_name');
  });

  it('name is used byte for byte: surrounding spaces are part of the name, not trimmed', async () => {
    const response = await api.request('/api/v1/advertiser?name=%20Acme%20', { key });
    expect(response.status).toBe(404);
    expect(response.body.message).toContain('" Acme "');
  });

  it('domain absent, empty or white space: missing_domain', async () => {
    for (const path of DOMAIN_PATHS) {
      await expectError(path, 'missing_domain');
      await expectError(`${path}?domain=`, 'missing_domain');
      await expectError(`${path}?domain=%20%09`, 'missing_domain');
    }
  });

  it('domain without a registrable domain, or given twice: invalid_domain, free', async () => {
    const before = await api.balanceOf(accountId);
    const invalid = [
      '127.0.0.1',
      '%5B%3A%3A1%5D',
      'localhost',
      'foo',
      'co.uk',
      'com',
      'brand.con',
      'exa%3Cmple.com',
      'ex%20ample.com',
      `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`,
      'ftp%3A%2F%2Fexample.com',
      'mailto%3Ainfo%40example.com',
    ];
    for (const path of DOMAIN_PATHS) {
      for (const domain of invalid) await expectError(`${path}?domain=${domain}`, 'invalid_domain');
      await expectError(`${path}?domain=example.com&domain=example.com`, 'invalid_domain');
    }
    expect(await api.balanceOf(accountId)).toBe(before);
  });

  it('domain is normalized to its root domain, and the response names the normalized value', async () => {
    const cases: [string, string][] = [
      ['https://WWW.Shop.Example.co.uk:443/a?b#c', 'example.co.uk'],
      ['www.example.com', 'example.com'],
      ['  Example.COM.  ', 'example.com'],
      ['http://user:pw@deep.sub.example.de:8080/path', 'example.de'],
      ['bücher.de', 'xn--bcher-kva.de'],
      ['shop.example.github.io', 'github.io'],
    ];
    for (const [input, normalized] of cases) {
      const response = await api.request(`/api/v1/domain?domain=${encodeURIComponent(input)}`, { key });
      expect(response.status, input).toBe(404);
      expect(response.body.message, input).toContain(`"${normalized}"`);
    }
  });

  it('name or domain that is not valid percent-encoded UTF-8: invalid_name / invalid_domain, free', async () => {
    const before = await api.balanceOf(accountId);
    const malformed = [
      '%FF', // a byte that never occurs in UTF-8
      'Acme%E9', // Latin-1 é, not UTF-8
      '%C3%28', // a lead byte followed by a non-continuation byte
      '%C0%80', // over-long encoding of NUL
      '%ED%A0%80', // an encoded surrogate (CESU-8), which UTF-8 forbids
      '%F4%90%80%80', // beyond U+10FFFF
      '%E2%82', // truncated sequence
      '100%', // a "%" without two hex digits
      '%zz',
      'a%2',
    ];
    for (const value of malformed) {
      for (const path of NAME_PATHS) await expectError(`${path}?name=${value}`, 'invalid_name');
      for (const path of DOMAIN_PATHS) await expectError(`${path}?domain=${value}`, 'invalid_domain');
    }
    // Repetition is reported as such, even when one of the values is malformed.
    await expectError('/api/v1/advertiser?name=%FF&name=Acme', 'invalid_name');
    // The message tells the caller what to fix.
    const response = await api.request('/api/v1/advertiser?name=100%', { key });
    expect(response.body.message).toContain('percent-encoded');
    expect(await api.balanceOf(accountId)).toBe(before);
  });

  it('well-formed encodings of the same text are one name: %20 and + are spaces, %25 is a percent sign', async () => {
    for (const query of ['name=100%25%20Natural', 'name=100%25+Natural', 'na%6De=100%25%20Natural']) {
      const response = await api.request(`/api/v1/advertiser?${query}`, { key });
      expect(response.status, query).toBe(404);
      expect(response.body.message, query).toContain('"100% Natural"');
    }
    // A malformed value of another parameter is ignored like the parameter itself.
    expect((await api.request('/api/v1/advertiser?name=Nobody&utm=%FF', { key })).status).toBe(404);
  });

  it('a name with NUL or a noncharacter is valid UTF-8: the lookup runs and names nobody (404, charged)', async () => {
    const before = await api.balanceOf(accountId);
    for (const value of ['Acme%00', '%00', '%EF%BF%BF', '%EF%BB%BFAcme']) {
      const response = await api.request(`/api/v1/advertiser?name=${value}`, { key });
      expect(response.status, value).toBe(404);
      expect(response.body).toMatchObject({ error: 'not_found', credits_charged: 3 });
    }
    expect(await api.balanceOf(accountId)).toBe(before - 4 * 3);
  });

  it('a 10 kB value is a fast, free 400, whether plain or fully percent-encoded', async () => {
    const before = await api.balanceOf(accountId);
    const values = ['a'.repeat(10_240), '%C3%A9'.repeat(5_120), encodeURIComponent('😀'.repeat(2_560))];
    for (const value of values) {
      for (const path of NAME_PATHS) {
        const started = performance.now();
        await expectError(`${path}?name=${value}`, 'invalid_name');
        expect(performance.now() - started).toBeLessThan(500);
      }
      for (const path of DOMAIN_PATHS) {
        const started = performance.now();
        await expectError(`${path}?domain=${value}`, 'invalid_domain');
        expect(performance.now() - started).toBeLessThan(500);
      }
    }
    expect(await api.balanceOf(accountId)).toBe(before);
  });

  it('unknown query parameters are ignored', async () => {
    const response = await api.request('/api/v1/advertiser?name=Nobody&limit=5&utm_source=x', { key });
    expect(response.status).toBe(404);
  });
});

describe('query parameters as the contract declares them', () => {
  const url = (query: string) => `http://localhost/api/v1/p${query}`;
  const thrown = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('the contract’s `required` decides what absence means: missing_<name>, the schema’s default, or nothing', () => {
    expect(thrown(() => queryParameters(url(''), [{ name: 'name', required: true }]))).toMatchObject({
      code: 'missing_name',
      status: 400,
    });
    const ledger = contractOperations.find((operation) => operation.operationId === 'getAccountLedger')!;
    expect(ledger.queryParameters).toEqual([
      { name: 'limit', required: false },
      { name: 'cursor', required: false },
    ]);
    expect(queryParameters(url(''), ledger.queryParameters)).toEqual({ limit: 50 });
    expect(queryParameters(url('?limit=7&other=1'), ledger.queryParameters)).toEqual({ limit: 7 });
    // Given, an optional parameter meets its rule like any other: a bare name is an empty value.
    expect(thrown(() => queryParameters(url('?cursor'), ledger.queryParameters))).toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('the start fails for a declared parameter without a rule, or a required one without its missing_ code', () => {
    for (const operation of contractOperations)
      for (const parameter of operation.queryParameters) expect(() => checkQueryParameter(parameter)).not.toThrow();
    expect(() => checkQueryParameter({ name: 'page', required: false })).toThrow(/"page", which has no rule/);
    expect(() => checkQueryParameter({ name: 'limit', required: true })).toThrow(/no error code missing_limit/);
  });
});

describe('the generated schemas check and make the values', () => {
  const url = (query: string) => `http://localhost/api/v1/p${query}`;
  const declared = (operationId: string) =>
    contractOperations.find((operation) => operation.operationId === operationId)!.queryParameters;

  it('an accepted value is what the route’s generated schema makes of it, an absent one its default', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['getAccountLedger', '', {}],
      ['getAccountLedger', '?limit=0007&cursor=bGVkZ2VyOjQy', { limit: '0007', cursor: 'bGVkZ2VyOjQy' }],
      ['getAccountUsage', '?from=2024-02-29&to=2024-03-01', { from: '2024-02-29', to: '2024-03-01' }],
      ['getAdvertiserSummary', '?name=Acme%20Outdoor', { name: 'Acme Outdoor' }],
      ['searchAdvertisers', '?q=acme', { q: 'acme' }],
    ];
    for (const [operationId, query, given] of cases) {
      const route = (routes as Record<string, any>)[`${operationId}Route`];
      expect(queryParameters(url(query), declared(operationId)), query).toEqual(route.request.query.parse(given));
    }
  });

  it('a value its schema refuses is refused with the parameter’s error: a day that does not exist', () => {
    for (const day of ['2023-02-29', '2026-04-31', '2100-02-29']) {
      let error: unknown;
      try {
        queryParameters(url(`?from=${day}`), declared('getAccountUsage'));
      } catch (thrown) {
        error = thrown;
      }
      expect(error, day).toMatchObject({ code: 'invalid_from', status: 400 });
    }
  });
});
