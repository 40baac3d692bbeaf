// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/data/client.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';

/**
 * Security headers on every response (docs/product-rules.md R9.2): nosniff everywhere, no-store on every
 * API and operations answer (charged ones above all), a Content-Security-Policy on every page.
 */
describe('security headers', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";

  it(
    'every API and operations answer, charged or not, success ' +
      'or error: nosniff, no-store, a policy that runs nothing',
    async () => {
      const { key } = await api.newKey(100);
      const { key: poor } = await api.newKey(1);
      const answers = [
        await api.app.request('/api/v1/account', { headers: { authorization: `Bearer ${key}` } }), // 200
        // 404, charged
        await api.app.request('/api/v1/advertiser?name=Nobody', { headers: { authorization: `Bearer ${key}` } }),
        await api.app.request('/api/v1/advertiser?name=', { headers: { authorization: `Bearer ${key}` } }), // 400
        await api.app.request('/api/v1/advertiser?name=x'), // 401
        // 402
        await api.app.request('/api/v1/brandbid?domain=example.com', { headers: { authorization: `Bearer ${poor}` } }),
        await api.app.request('/api/v1/brandbid', { method: 'DELETE' }), // 405
        await api.app.request('/api/v1/unknown'), // 404, unknown path
        await api.app.request('/nowhere'), // 404 outside the API
        await api.app.request('/api/v1/account', { method: 'HEAD', headers: { authorization: `Bearer ${key}` } }),
        await api.app.request('/healthz'),
        await api.app.request('/readyz'),
        await api.app.request('/metrics'),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([
        200, 404, 400, 401, 402, 405, 404, 404, 200, 200, 200, 200,
      ]);
      for (const answer of answers) {
        expect(answer.headers.get('x-content-type-options'), answer.url).toBe('nosniff');
        expect(answer.headers.get('cache-control'), answer.url).toBe('no-store');
        expect(answer.headers.get('content-security-policy'), answer.url).toBe(JSON_POLICY);
        expect(answer.headers.get('x-frame-options'), answer.url).toBe('SAMEORIGIN');
        expect(answer.headers.get('referrer-policy'), answer.url).toBe('no-referrer');
        // HSTS is the TLS terminator's to send: the service speaks plain HTTP.
        expect(answer.headers.get('strict-transport-security'), answer.url).toBeNull();
      }
      // The contract is the same for everyone until the service changes: kept, revalidated (R16.9).
      const contract = await api.app.request('/openapi.json');
      expect(contract.headers.get('cache-control')).toBe('no-cache');
      expect(contract.headers.get('x-content-type-options')).toBe('nosniff');
      expect(contract.headers.get('content-security-policy')).toBe(JSON_POLICY);
    },
  );

  it('server errors too: a 500 after a refund and a 503 with the database away', async () => {
    const { key } = await api.newKey(100);
    await api.db.sql`ALTER TABLE identifiers RENAME TO identifiers_gone`;
    let failed: Response;
    try {
      failed = await api.app.request('/api/v1/advertiser/domains?name=Acme', {
        headers: { authorization: `Bearer ${key}` },
      });
    } finally {
      await api.db.sql`ALTER TABLE identifiers_gone RENAME TO identifiers`;
    }
    const sql = connect('postgres://postgres@127.0.0.1:1/nowhere', 1);
    try {
      const away = await testApp({ sql }).request('/api/v1/advertiser?name=Acme', {
        headers: { authorization: `Bearer ${key}` },
      });
      for (const [status, answer] of [
        [500, failed],
        [503, away],
      ] as const) {
        expect(answer.status).toBe(status);
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(answer.headers.get('content-security-policy')).toBe(JSON_POLICY);
      }
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it(
    'the docs page has its own policy (scripts from the service and ' +
      'its nonce only) and is never cached; its script bundle may be',
    async () => {
      const page = await api.app.request('/docs');
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(
        /^default-src 'self'; script-src 'self' 'nonce-[^']+'; style-src 'self' 'unsafe-inline'; /,
      );
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-eval');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const script = await api.app.request('/docs/scalar-api-reference.js');
      expect(script.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );
});
