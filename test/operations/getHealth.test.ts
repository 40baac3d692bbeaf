import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';

/** GET /healthz: liveness, which says the process serves HTTP and nothing about the database. */
describe('/healthz', () => {
  let sql: Sql;
  let app: App;
  // No database listens there: liveness must not depend on one.
  beforeAll(() => {
    sql = connect('postgres://postgres@127.0.0.1:1/nowhere', 1);
    app = testApp({ sql });
  });
  afterAll(async () => {
    await sql.end({ timeout: 1 });
  });

  const get = async (path: string, init: RequestInit = {}) =>
    validateResponse(init.method ?? 'GET', path, await app.request(path, init));

  it(
    'answers 200 {"status":"ok"} without a key, free, ' + 'with no credit headers, even with the database away',
    async () => {
      const response = await get('/healthz');
      expect(response.status).toBe(200);
      expect(response.text).toBe('{"status":"ok"}');
      expect(response.headers.get('x-credits-charged')).toBeNull();
      expect(response.headers.get('x-credits-remaining')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('ignores keys: a valid-looking, unknown or malformed key changes nothing (never 401)', async () => {
    const keys: Record<string, string>[] = [
      { authorization: `Bearer ${generateApiKey().key}` },
      { 'x-api-key': 'not-a-key' },
      { authorization: 'Basic x' },
    ];
    for (const headers of keys) {
      const response = await get('/healthz', { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('HEAD answers like GET without a body; other methods answer 405 with Allow: GET, HEAD', async () => {
    const head = await get('/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await get('/healthz', { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});
