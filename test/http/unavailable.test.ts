// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';

/**
 * docs/product-rules.md R9.5: 503 `unavailable` when the database cannot be reached. The pool points
 * at a port where no server listens, so every connection attempt really fails.
 */
describe('503 unavailable', () => {
  let sql: Sql;
  let app: App;
  beforeAll(() => {
    sql = connect('postgres://postgres@127.0.0.1:1/nowhere', 2);
    app = testApp({ sql });
  });
  afterAll(async () => {
    await sql.end({ timeout: 1 });
  });

  it(
    'answers 503 unavailable, quickly, saying nothing ' + 'was charged, with Retry-After and no credit headers',
    async () => {
      const { key } = generateApiKey();
      for (const path of [
        '/api/v1/advertiser?name=Acme',
        '/api/v1/brandbid?domain=acme.com',
        '/api/v1/account',
        '/api/v1/advertiser?name=',
      ]) {
        const started = performance.now();
        const response = await validateResponse(
          'GET',
          path,
          await app.request(path, { headers: { 'x-api-key': key } }),
        );
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(response.status, path).toBe(503);
        expect(response.body).toEqual({
          error: 'unavailable',
          message: expect.stringContaining('Nothing was charged'),
          credits_refunded: 0,
        });
        expect(response.headers.get('x-credits-charged')).toBeNull();
        expect(response.headers.get('retry-after')).toBe('5');
      }
    },
  );

  it('checks that need no database still answer: a malformed key is 401, an unknown path 404', async () => {
    expect((await app.request('/api/v1/account', { headers: { 'x-api-key': 'nope' } })).status).toBe(401);
    expect((await app.request('/api/v1/elsewhere')).status).toBe(404);
  });
});
