// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { generateApiKey, hashApiKey } from '../../src/contract/api-key.ts';
import { connect } from '../../src/data/client.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';

/**
 * The request log (pino, one JSON line per request) and what it must never hold: an API key,
 * in any of the places a caller can put one, nor anything derived from it.
 */
describe('request log', () => {
  let api: TestApi;
  const output: string[] = [];
  const lines = () =>
    output
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  beforeAll(async () => {
    api = await createTestApi({
      logger: createLogger({ level: 'info', destination: { write: (chunk) => void output.push(chunk) } }),
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('one JSON line per request: request id, operation, method, path, status, credits charged, duration', async () => {
    output.length = 0;
    const { key } = await api.newKey(100);
    const answers = [
      await api.request('/api/v1/advertiser?name=Nobody', { key }),
      await api.request('/api/v1/account', { key, method: 'HEAD' }),
      await api.request('/api/v1/advertiser?name='),
      await api.request('/healthz'),
      await api.request('/api/v1/nothing-here'),
    ];
    const logged = lines();
    expect(logged).toHaveLength(answers.length);
    for (const line of logged) {
      expect(line).toMatchObject({ level: 'info', msg: 'request', service: 'advertiser-lookup-api' });
      expect(typeof line.time).toBe('string');
      expect(typeof line.duration_ms).toBe('number');
      expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(logged.map((line) => line.request_id)).toEqual(answers.map((answer) => answer.headers.get('x-request-id')));
    const fields = logged.map(({ operation, method, path, status, credits_charged }) => ({
      operation,
      method,
      path,
      status,
      credits_charged,
    }));
    expect(fields).toEqual([
      { operation: 'getAdvertiserSummary', method: 'GET', path: '/api/v1/advertiser', status: 404, credits_charged: 3 },
      { operation: 'getAccount', method: 'HEAD', path: '/api/v1/account', status: 200, credits_charged: 0 },
      { operation: 'getAdvertiserSummary', method: 'GET', path: '/api/v1/advertiser', status: 401, credits_charged: 0 },
      { operation: 'getHealth', method: 'GET', path: '/healthz', status: 200, credits_charged: 0 },
      // An unknown path is caller input: it is not logged.
      { operation: 'unmatched', method: 'GET', path: undefined, status: 404, credits_charged: 0 },
    ]);
  });

  it('a failed call is logged at level error with its cause and its refund', async () => {
    output.length = 0;
    const { key } = await api.newKey(100);
    await api.db.sql`ALTER TABLE identifiers RENAME TO identifiers_gone`;
    try {
      expect((await api.request('/api/v1/advertiser/domains?name=Acme', { key })).status).toBe(500);
    } finally {
      await api.db.sql`ALTER TABLE identifiers_gone RENAME TO identifiers`;
    }
    const [line] = lines();
    expect(line).toMatchObject({
      level: 'error',
      msg: 'request failed',
      operation: 'getAdvertiserLandingDomains',
      status: 500,
      credits_charged: 0,
      credits_refunded: 15,
      err: { code: '42P01', message: expect.stringContaining('identifiers') },
    });
    expect(Object.keys(line.err).sort()).toEqual(['code', 'message', 'stack', 'type']);
  });

  it(
    'never holds key material: keys sent as Bearer, x-api-key, ' +
      'in the query string, in the path or as a request id',
    async () => {
      output.length = 0;
      const bearer = (await api.newKey(100)).key;
      const header = (await api.newKey(100)).key;
      const inQuery = (await api.newKey(100)).key;
      const inPath = (await api.newKey(100)).key;
      const asRequestId = (await api.newKey(100)).key;
      const unknown = generateApiKey().key;
      const badChecksum = `${unknown.slice(0, -1)}${unknown.endsWith('0') ? '1' : '0'}`;
      await api.request('/api/v1/account', { key: bearer });
      await api.request('/api/v1/advertiser?name=Nobody', { key: bearer });
      await api.request('/api/v1/account', { headers: { 'x-api-key': header } });
      await api.request('/api/v1/domain?domain=example.com', {
        headers: { 'x-api-key': header, authorization: `Bearer ${bearer}` },
      });
      await api.request(`/api/v1/advertiser?name=Nobody&api_key=${inQuery}`);
      await api.request(`/api/v1/advertiser?api_key=${inQuery}&name=Nobody`, { key: bearer });
      await api.request(`/api/v1/advertiser?name=${inQuery}`, { key: bearer });
      await api.request(`/api/v1/${inPath}`);
      await api.request(`/${inPath}?x-api-key=${inPath}`);
      await api.request('/metrics', { headers: { authorization: `Bearer ${inPath}` } });
      const echoed = await api.request('/api/v1/account', { key: bearer, headers: { 'X-Request-Id': asRequestId } });
      expect(echoed.headers.get('x-request-id')).not.toBe(asRequestId);
      await api.request('/api/v1/account', { key: unknown });
      await api.request('/api/v1/account', { key: badChecksum });
      await api.request('/api/v1/account', { headers: { 'x-api-key': badChecksum } });
      await api.db.sql`ALTER TABLE identifiers RENAME TO identifiers_gone`;
      try {
        await api.request(`/api/v1/advertiser/history?name=${inQuery}`, { key: bearer });
      } finally {
        await api.db.sql`ALTER TABLE identifiers_gone RENAME TO identifiers`;
      }

      const log = output.join('');
      expect(lines()).toHaveLength(15);
      for (const key of [bearer, header, inQuery, inPath, asRequestId, unknown, badChecksum]) {
        const hash = hashApiKey(key);
        const forbidden = [
          key,
          key.slice(4), // the secret part without the well-known prefix
          key.slice(0, 12), // the display prefix the database keeps
          hash.toString('hex').slice(0, 16),
          hash.toString('base64').slice(0, 16),
          hash.toString('base64url').slice(0, 16),
        ];
        for (const material of forbidden) expect(log, `key material ${material}`).not.toContain(material);
      }
      expect(log).not.toMatch(/alk_/i);
      expect(log).not.toMatch(/authorization|x-api-key|api_key|bearer/i);
    },
  );

  it('LOG_LEVEL sets the level: at warn, calls that succeed write nothing and a 503 still does', async () => {
    const { logLevel } = loadConfig({ LOG_LEVEL: 'warn' });
    const written: string[] = [];
    const sql = connect('postgres://postgres@127.0.0.1:1/nowhere', 1);
    try {
      const app = testApp({
        sql,
        logger: createLogger({ level: logLevel, destination: { write: (chunk) => void written.push(chunk) } }),
      });
      expect((await app.request('/healthz')).status).toBe(200);
      expect(written).toEqual([]);
      expect((await app.request('/readyz')).status).toBe(503);
      expect(written).toHaveLength(1);
      expect(JSON.parse(written[0])).toMatchObject({
        level: 'warn',
        msg: 'request failed',
        operation: 'getReadiness',
        status: 503,
        err: { code: 'ECONNREFUSED' },
      });
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
