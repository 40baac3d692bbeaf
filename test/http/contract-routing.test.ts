// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('unknown paths and methods (docs/product-rules.md R9.4, §5 order of checks)', () => {
  let api: TestApi;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    api = await createTestApi();
    ({ key, accountId } = await api.newKey());
  });
  afterAll(async () => {
    await api.close();
  });

  it('unknown path: 404 not_found, free, before the key is even read', async () => {
    for (const path of ['/api/v1/nothing', '/api/v2/advertiser', '/api/v1/advertiser/', '/nowhere']) {
      const noKey = await api.request(path);
      expect(noKey.status).toBe(404);
      expect(noKey.body).toEqual({ error: 'not_found', message: expect.any(String) });
      const withKey = await api.request(path, { key });
      expect(withKey.status).toBe(404);
      expect(withKey.headers.get('x-credits-charged')).toBeNull();
    }
    expect(await api.balanceOf(accountId)).toBe(200);
  });

  it(
    'other methods: 405 method_not_allowed with an Allow ' + 'header derived from the spec, free, before the key',
    async () => {
      for (const path of [
        '/api/v1/advertiser',
        '/api/v1/domain',
        '/api/v1/advertiser/history',
        '/api/v1/advertiser/domains',
        '/api/v1/brandbid',
        '/api/v1/account',
      ]) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          const response = await api.request(`${path}?name=x&domain=example.com`, { method, key });
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(response.headers.get('allow')).toBe('GET, HEAD');
          expect(response.body.error).toBe('method_not_allowed');
          expect(response.headers.get('x-credits-charged')).toBeNull();
        }
        const noKey = await api.request(path, { method: 'DELETE' });
        expect(noKey.status).toBe(405);
      }
      expect(await api.balanceOf(accountId)).toBe(200);
    },
  );

  it("a watch's paths answer other methods 405 with their own Allow, the test event's path (no GET) too", async () => {
    const id = '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f';
    for (const [path, allow] of [
      ['/api/v1/watches', 'GET, POST, HEAD'],
      [`/api/v1/watches/${id}`, 'GET, DELETE, HEAD'],
      [`/api/v1/watches/${id}/events`, 'GET, HEAD'],
      [`/api/v1/watches/${id}/test`, 'POST'],
    ]) {
      for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
        const response = await api.app.request(path, { method, headers: { Authorization: `Bearer ${key}` } });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect((await response.json()).error).toBe('method_not_allowed');
      }
    }
    expect(await api.balanceOf(accountId)).toBe(200);
  });

  it(
    "an unknown path never echoes a key: whatever has a key's " +
      'shape is replaced by alk_…, every other path is echoed as sent',
    async () => {
      const leaked = generateApiKey().key;
      for (const [path, echoed] of [
        [`/api/v1/${leaked}`, '/api/v1/alk_…'],
        [`/api/v1/advertiser/${leaked}/x`, '/api/v1/advertiser/alk_…/x'],
        [`/${leaked}`, '/alk_…'],
        [`/api/v1/%61${leaked.slice(1)}`, '/api/v1/alk_…'],
        ['/api/v1/alk_short', '/api/v1/alk_short'],
        [`/api/v1/${leaked}X`, `/api/v1/${leaked}X`],
        ['/api/v1/nothing', '/api/v1/nothing'],
      ]) {
        const response = await api.request(path, { key });
        expect(response.status, path).toBe(404);
        expect(response.body.message, path).toBe(`There is no endpoint at ${JSON.stringify(echoed)}.`);
        if (echoed.includes('alk_…')) expect(response.text, path).not.toContain(leaked.slice(4));
      }
    },
  );

  it(
    'the contract documents and the docs answer other methods ' +
      "405 with Allow: GET, HEAD, like the contract's paths, free",
    async () => {
      for (const path of ['/', '/docs', '/openapi.yaml', '/openapi.json', '/docs/scalar-api-reference.js']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          const response = await api.app.request(path, { method, headers: { Authorization: `Bearer ${key}` } });
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(response.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
          expect(response.headers.get('x-request-id'), `${method} ${path}`).toMatch(/^[0-9a-f-]{36}$/);
          expect(await response.json(), `${method} ${path}`).toEqual({
            error: 'method_not_allowed',
            message: 'This path supports GET and HEAD only.',
          });
        }
        for (const method of ['GET', 'HEAD'])
          expect((await api.app.request(path, { method })).status, `${method} ${path}`).toBeLessThan(400);
      }
      // Their neighbours are still unknown paths.
      for (const path of ['/docs/', '/docs/other.js', '/openapi.yml', '/nowhere', '/api/v1/nothing'])
        expect((await api.app.request(path, { method: 'POST' })).status, path).toBe(404);
      expect(await api.balanceOf(accountId)).toBe(200);
    },
  );

  it('HEAD is answered like GET, without a body', async () => {
    const response = await api.request('/api/v1/account', { method: 'HEAD', key });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('x-credits-remaining')).toBe('200');
  });

  it('every response carries X-Request-Id; a plain caller-supplied one is echoed', async () => {
    const generated = await api.request('/api/v1/account', { key });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await api.request('/api/v1/account', { key, headers: { 'X-Request-Id': 'client-req-0001' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-0001');
    const unsafe = await api.request('/api/v1/account', { key, headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('bad id with spaces');
    // An API key sent as the request id is never echoed (the id is logged and kept in the ledger).
    const keyAsId = await api.request('/api/v1/account', { key, headers: { 'X-Request-Id': key } });
    expect(keyAsId.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
