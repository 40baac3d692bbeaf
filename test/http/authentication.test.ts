// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { createApiKey, setAccountDisabled } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

const BILLED = [
  '/api/v1/advertiser?name=Nobody',
  '/api/v1/domain?domain=nothing-here.com',
  '/api/v1/advertiser/history?name=Nobody',
  '/api/v1/advertiser/domains?name=Nobody',
  '/api/v1/brandbid?domain=nothing-here.com',
  '/api/v1/account',
];

describe('authentication (docs/product-rules.md §4)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function expectUnauthorized(path: string, headers: Record<string, string>) {
    const response = await api.request(path, { headers });
    expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    // A 401 carries no credit headers.
    expect(response.headers.get('x-credits-charged')).toBeNull();
    expect(response.headers.get('x-credits-remaining')).toBeNull();
  }

  it('missing key: 401 on every operation', async () => {
    for (const path of BILLED) await expectUnauthorized(path, {});
  });

  it('malformed key: wrong shape, wrong checksum, wrong scheme: 401', async () => {
    const { key } = generateApiKey();
    const typo = key.slice(0, 20) + (key[20] === 'Q' ? 'R' : 'Q') + key.slice(21);
    for (const headers of <Record<string, string>[]>[
      { Authorization: 'Bearer nope' },
      { Authorization: `Bearer ${typo}` },
      { Authorization: `Basic ${key}` },
      { Authorization: key },
      { Authorization: 'Bearer' },
      { 'x-api-key': '' },
      { 'x-api-key': typo },
      { 'x-api-key': `${key} ` },
    ]) {
      await expectUnauthorized('/api/v1/account', headers);
    }
  });

  it('unknown key with a valid shape and checksum: 401', async () => {
    await expectUnauthorized('/api/v1/advertiser?name=x', { 'x-api-key': generateApiKey().key });
  });

  it('header equivalence: Authorization Bearer and x-api-key are the same key', async () => {
    const { key, accountId } = await api.newKey();
    const viaBearer = await api.request('/api/v1/advertiser?name=Nobody', {
      headers: { Authorization: `Bearer ${key}` },
    });
    const viaHeader = await api.request('/api/v1/advertiser?name=Nobody', { headers: { 'x-api-key': key } });
    const lowerScheme = await api.request('/api/v1/advertiser?name=Nobody', {
      headers: { Authorization: `bearer ${key}` },
    });
    expect([viaBearer.status, viaHeader.status, lowerScheme.status]).toEqual([404, 404, 404]);
    expect([viaBearer, viaHeader, lowerScheme].map((r) => r.body.credits_remaining)).toEqual([197, 194, 191]);
    expect(await api.balanceOf(accountId)).toBe(191);
  });

  it('header conflict: both headers present and different is 401; the same key in both is fine', async () => {
    const { key, accountId } = await api.newKey();
    const other = await api.newKey();
    await expectUnauthorized('/api/v1/account', { Authorization: `Bearer ${key}`, 'x-api-key': other.key });
    await expectUnauthorized('/api/v1/account', { Authorization: 'Bearer garbage', 'x-api-key': key });
    const same = await api.request('/api/v1/account', {
      headers: { Authorization: `Bearer ${key}`, 'x-api-key': key },
    });
    expect(same.status).toBe(200);
    expect(await api.balanceOf(accountId)).toBe(200);
  });

  it("revoked key: 401 from the next request on, free; the account's other keys still work", async () => {
    const { key, keyId, accountId } = await api.newKey();
    const second = await createApiKey(api.db.sql, accountId);
    expect((await api.request('/api/v1/account', { key })).status).toBe(200);
    await revokeApiKey(api.db.sql, keyId);
    for (const path of BILLED) await expectUnauthorized(path, { Authorization: `Bearer ${key}` });
    expect((await api.request('/api/v1/account', { key: second.key })).body).toEqual({
      key_prefix: second.displayPrefix,
      balance: 200,
    });
    expect(await api.balanceOf(accountId)).toBe(200);
  });

  it('disabled account: every key of it is 401, free, until it is enabled again', async () => {
    const { key, accountId } = await api.newKey();
    await setAccountDisabled(api.db.sql, accountId, true);
    for (const path of BILLED) await expectUnauthorized(path, { 'x-api-key': key });
    await setAccountDisabled(api.db.sql, accountId, false);
    expect((await api.request('/api/v1/advertiser?name=Nobody', { key })).status).toBe(404);
    expect(await api.balanceOf(accountId)).toBe(197);
  });

  it('order of checks: the key is checked before the parameters (401 beats 400)', async () => {
    const { key, keyId } = await api.newKey();
    await expectUnauthorized('/api/v1/advertiser', {});
    await expectUnauthorized('/api/v1/domain?domain=localhost', { Authorization: 'Bearer nope' });
    await expectUnauthorized('/api/v1/brandbid?domain=', { 'x-api-key': generateApiKey().key });
    await revokeApiKey(api.db.sql, keyId);
    await expectUnauthorized('/api/v1/advertiser?name=', { 'x-api-key': key });
  });
});
