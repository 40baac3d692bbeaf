// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';

const OPERATIONS = [
  '/api/v1/advertiser?name=',
  '/api/v1/domain?domain=',
  '/api/v1/advertiser/history?name=',
  '/api/v1/advertiser/domains?name=',
  '/api/v1/brandbid?domain=',
  '/api/v1/account?padding=',
];
const MAX_URL_BYTES = 1024;

/** `prefix` padded with `a` to exactly `length` characters. */
const padded = (prefix: string, length: number) => prefix + 'a'.repeat(length - prefix.length);

describe('URL length limit (request-limits)', () => {
  let api: TestApi;
  let app: App;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    api = await createTestApi();
    app = testApp({ sql: api.db.sql, limits: { maxUrlBytes: MAX_URL_BYTES } });
    ({ key, accountId } = await api.newKey(1000));
  });
  afterAll(async () => {
    await api.close();
  });

  async function request(path: string, method = 'GET') {
    const response = await app.request(path, { method, headers: { Authorization: `Bearer ${key}` } });
    return validateResponse(method, path, response);
  }

  it(
    'a URL over the limit: 414 uri_too_long on every ' + 'operation, free, with X-Request-Id and no credit headers',
    async () => {
      const before = await api.balanceOf(accountId);
      for (const operation of OPERATIONS) {
        const response = await request(padded(operation, MAX_URL_BYTES + 1));
        expect(response.status, operation).toBe(414);
        expect(response.body).toEqual({
          error: 'uri_too_long',
          message: `The request URL is longer than ${MAX_URL_BYTES} bytes.`,
        });
        expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{8,128}$/);
        expect(response.headers.get('x-credits-charged')).toBeNull();
      }
      expect(await api.balanceOf(accountId)).toBe(before);
      expect(await api.ledgerSum(accountId)).toBe(before);
    },
  );

  it('a URL of exactly the limit reaches the operation', async () => {
    const response = await request(padded('/api/v1/account?padding=', MAX_URL_BYTES));
    expect(response.status).toBe(200);
    // Here the over-long name is the parameter rules' to refuse.
    const name = await request(padded('/api/v1/advertiser?name=', MAX_URL_BYTES));
    expect(name.body.error).toBe('invalid_name');
  });

  it('the limit is checked first: before an unknown path, a wrong method or a missing key', async () => {
    const unknown = await app.request(padded('/nowhere?x=', MAX_URL_BYTES + 1));
    expect(unknown.status).toBe(414);
    expect((await request(padded('/api/v1/account?padding=', MAX_URL_BYTES + 1), 'POST')).status).toBe(414);
    const anonymous = await validateResponse(
      'GET',
      '/api/v1/account',
      await app.request(padded('/api/v1/account?padding=', MAX_URL_BYTES + 1)),
    );
    expect(anonymous.status).toBe(414);
  });

  it('the default limit (32 KiB) leaves room for a 10 kB value percent-encoded three bytes per byte', async () => {
    const response = await api.request(`/api/v1/advertiser?name=${'%C3%A9'.repeat(5_120)}`, { key });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_name');
    expect((await api.request(padded('/api/v1/account?padding=', 32 * 1024 + 1), { key })).status).toBe(414);
  });
});
