// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';

/**
 * The edge's rules that are read from the contract at start-up (src/contract/request-rules.ts),
 * at their bounds: the X-Request-Id a caller may set, the Idempotency-Key, the key headers and the
 * credential parameters.
 */
describe('rules read from the contract, at their bounds', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await createTestApi();
    ({ key } = await api.newKey(1000));
  });
  afterAll(async () => {
    await api.close();
  });

  it('X-Request-Id: a value of components/headers/X-Request-Id is echoed, any other replaced', async () => {
    const echoed = ['a'.repeat(8), 'Z'.repeat(128), 'req.1_2-3', '00000000'];
    const replaced = [
      'a'.repeat(7),
      'a'.repeat(129),
      'has space1',
      'slash/slash',
      'alk_abcdefgh',
      'ALK_abcdefgh',
      'ümlautümlaut',
      '',
    ];
    for (const id of echoed) {
      const response = await api.request('/healthz', { headers: { 'X-Request-Id': id } });
      expect(response.headers.get('x-request-id'), id).toBe(id);
    }
    for (const id of replaced) {
      const response = await api.request('/healthz', { headers: { 'X-Request-Id': id } });
      expect(response.headers.get('x-request-id'), id).not.toBe(id);
      expect(response.headers.get('x-request-id'), id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('Idempotency-Key: 1 to 255 visible ASCII characters, otherwise 400 with the limits in the message', async () => {
    for (const idempotencyKey of ['!', '~'.repeat(255)]) {
      const response = await api.request('/api/v1/advertiser?name=Nobody', {
        key,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      expect(response.status, idempotencyKey).toBe(404);
    }
    for (const idempotencyKey of ['~'.repeat(256), 'two words', 'tab\there']) {
      const response = await api.request('/api/v1/advertiser?name=Nobody', {
        key,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      expect(response.status, idempotencyKey).toBe(400);
      expect(response.body).toEqual({
        error: 'invalid_idempotency_key',
        message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.',
      });
    }
  });

  it('the key is read from Authorization (any case of "Bearer") and from x-api-key', async () => {
    const ways: Record<string, string>[] = [
      { Authorization: `Bearer ${key}` },
      { Authorization: `bEaReR   ${key}  ` },
      { 'X-API-Key': key },
    ];
    for (const headers of ways) {
      expect((await api.request('/api/v1/account', { headers })).status, JSON.stringify(headers)).toBe(200);
    }
    expect((await api.request('/api/v1/account', { headers: { Authorization: `Token ${key}` } })).status).toBe(401);
  });

  it('every credential parameter of x-credential-parameters is refused, in any case, with - or _', async () => {
    for (const name of ['api_key', 'API-KEY', 'apikey', 'key', 'Token', 'access-token', 'x-api-key', 'X_API_KEY']) {
      const response = await api.request(`/api/v1/account?${name}=secret`, { key });
      expect(response.status, name).toBe(401);
    }
    expect((await api.request('/api/v1/account?keys=secret', { key })).status).toBe(200);
    expect((await api.request('/api/v1/account?api_key=%20', { key })).status).toBe(200);
  });
});
