// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { setAccountDisabled } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import type { ValidatedResponse } from '../support/contract.ts';

/** Every operation, each with parameters that would otherwise be a charged lookup. */
const OPERATIONS = [
  { path: '/api/v1/advertiser?name=Nobody', price: 3 },
  { path: '/api/v1/domain?domain=nothing-here.com', price: 3 },
  { path: '/api/v1/advertiser/history?name=Nobody', price: 9 },
  { path: '/api/v1/advertiser/domains?name=Nobody', price: 15 },
  { path: '/api/v1/brandbid?domain=nothing-here.com', price: 60 },
  { path: '/api/v1/account', price: 0 },
];
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe('keys in the URL and keys of other accounts (R4.10, R4.12)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  function expectKeyInUrlRefused(response: ValidatedResponse, what: string) {
    expect(response.status, what).toBe(401);
    expect(response.body.error, what).toBe('unauthorized');
    expect(response.body.message, what).toMatch(
      /not accepted in the URL.*"Authorization: Bearer <key>" or "x-api-key: <key>" header/,
    );
    expect(response.headers.get('www-authenticate'), what).toBe('Bearer');
    expect(response.headers.get('x-credits-charged'), what).toBeNull();
    expect(response.headers.get('x-credits-remaining'), what).toBeNull();
  }

  it(
    'a key in a credential parameter of the query string: 401 ' +
      'on every operation, even beside a valid header key, free',
    async () => {
      const { key, accountId } = await api.newKey(1000);
      const parameters = [
        'api_key',
        'apikey',
        'key',
        'access_token',
        'x-api-key',
        'token',
        'API_KEY',
        'Api-Key',
        'x_api_key',
      ];
      for (const { path } of OPERATIONS) {
        for (const parameter of parameters) {
          const query = `${parameter}=${key}`;
          expectKeyInUrlRefused(await api.request(withQuery(path, query)), `${path} ${parameter}, no header`);
          expectKeyInUrlRefused(
            await api.request(withQuery(path, query), { key }),
            `${path} ${parameter}, valid bearer`,
          );
          expectKeyInUrlRefused(
            await api.request(withQuery(path, query), { headers: { 'x-api-key': key } }),
            `${path} ${parameter}, valid x-api-key`,
          );
        }
      }
      expect(await api.balanceOf(accountId)).toBe(1000);
      expect(await api.ledgerSum(accountId)).toBe(1000);
    },
  );

  it(
    'anything in a credential parameter is refused (a mistyped ' +
      "key, another service's key), but a blank one is ignored",
    async () => {
      const { key } = await api.newKey();
      for (const value of ['not-a-key', 'alk_short', encodeURIComponent(`Bearer ${key}`)]) {
        expectKeyInUrlRefused(await api.request(`/api/v1/account?api_key=${value}`, { key }), value);
      }
      for (const query of ['api_key=', 'key=%20', 'token']) {
        expect((await api.request(`/api/v1/account?${query}`, { key })).status, query).toBe(200);
      }
    },
  );

  it('a value shaped like one of our keys under any parameter name is refused, checksum right or wrong', async () => {
    const { key, accountId } = await api.newKey(1000);
    const typo = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const { path } of OPERATIONS) {
      for (const query of [
        `q=${key}`,
        `auth=${encodeURIComponent(`Bearer ${key}`)}`,
        `x=${typo}`,
        `${key}`,
        `note=${encodeURIComponent(`my key is ${key}!`)}`,
      ]) {
        expectKeyInUrlRefused(await api.request(withQuery(path, query), { key }), `${path} ${query}`);
      }
    }
    // As the name itself: `name=alk_…` is a key pasted into the wrong place, not an advertiser.
    expectKeyInUrlRefused(await api.request(`/api/v1/advertiser?name=${key}`, { key }), 'name=<key>');
    expect(await api.balanceOf(accountId)).toBe(1000);
  });

  it(
    'a key in the URL is refused whatever else is malformed: a bad escape ' +
      'beside it (%FF, a lone %) does not hide it, in a value or a name',
    async () => {
      const { key, accountId } = await api.newKey(1000);
      const escaped = `%61${key.slice(1)}`;
      for (const { path } of OPERATIONS) {
        for (const query of [
          `q=${escaped}%FF`,
          `q=${escaped}%`,
          `q=${key}%`,
          `q=%FF${escaped}`,
          `q=${escaped}%E9x`,
          `${escaped}%FF=1`,
          `${escaped}%=1`,
          `a%FF${escaped}=1`,
        ]) {
          expectKeyInUrlRefused(await api.request(withQuery(path, query), { key }), `${path} ${query}`);
          expectKeyInUrlRefused(
            await api.request(withQuery(path, query), { headers: { 'x-api-key': key } }),
            `${path} ${query}, x-api-key`,
          );
        }
      }
      expect(await api.balanceOf(accountId)).toBe(1000);
    },
  );

  it('text that only mentions the prefix is not a key: the call runs', async () => {
    const { key } = await api.newKey(1000);
    for (const name of ['alk_', 'alk_Acme', `alk_${'a'.repeat(37)}`, `alk_${'a'.repeat(39)}`]) {
      const response = await api.request(`/api/v1/advertiser?name=${name}`, { key });
      expect(response.status, name).toBe(404);
    }
  });

  it('a key refused in the URL is not revoked: it still works from the header', async () => {
    const { key } = await api.newKey(100);
    expect((await api.request(`/api/v1/account?api_key=${key}`)).status).toBe(401);
    expect((await api.request('/api/v1/account', { key })).body).toEqual({
      key_prefix: key.slice(0, 12),
      balance: 100,
    });
  });

  it("a key only ever spends its own account's credits: calls with key B never touch account A", async () => {
    const a = await api.newKey(1000);
    const b = await api.newKey(1000);
    const ledgerA = await api.db
      .sql`SELECT id, amount, balance_after FROM ledger WHERE account_id = ${a.accountId} ORDER BY id`;
    let spent = 0;
    for (const { path, price } of OPERATIONS) {
      const response = await api.request(path, { key: b.key });
      spent += price;
      expect(response.headers.get('x-credits-remaining'), path).toBe(String(1000 - spent));
    }
    const account = await api.request('/api/v1/account', { key: b.key });
    expect(account.body).toEqual({ key_prefix: b.key.slice(0, 12), balance: 1000 - spent });
    expect(await api.balanceOf(b.accountId)).toBe(1000 - spent);
    // Account A: the same balance and the very same ledger rows as before.
    expect(await api.balanceOf(a.accountId)).toBe(1000);
    expect(
      await api.db.sql`SELECT id, amount, balance_after FROM ledger WHERE account_id = ${a.accountId} ORDER BY id`,
    ).toEqual(ledgerA);
    // Every charge B's calls made names B's account and B's key.
    const charges = await api.db.sql<{ account_id: number; key_id: number }[]>`
      SELECT account_id, key_id FROM ledger WHERE kind = 'charge' AND endpoint <> 'test-setup'
        AND key_id IN (${a.keyId}, ${b.keyId})`;
    expect(charges).toHaveLength(OPERATIONS.filter((op) => op.price > 0).length);
    expect(charges.every((row) => row.account_id === b.accountId && row.key_id === b.keyId)).toBe(true);
  });

  it(
    'refused keys answer alike (unknown, wrong checksum, ' +
      'revoked, disabled account, none): one body, nothing charged',
    async () => {
      const valid = await api.newKey(1000);
      const revoked = await api.newKey(1000);
      await revokeApiKey(api.db.sql, revoked.keyId);
      const disabled = await api.newKey(1000);
      await setAccountDisabled(api.db.sql, disabled.accountId, true);
      const bodies = new Set<string>();
      for (const headers of <Record<string, string>[]>[
        { 'x-api-key': generateApiKey().key }, // valid shape and checksum, unknown
        { 'x-api-key': valid.key.slice(0, -1) + (valid.key.endsWith('A') ? 'B' : 'A') }, // wrong checksum
        { 'x-api-key': revoked.key },
        { 'x-api-key': disabled.key },
        {}, // no key
      ]) {
        for (const { path } of OPERATIONS) {
          const response = await api.request(path, { headers });
          expect(response.status).toBe(401);
          expect(response.headers.get('www-authenticate')).toBe('Bearer');
          expect(response.headers.get('x-credits-charged')).toBeNull();
          expect(response.headers.get('x-credits-remaining')).toBeNull();
          bodies.add(response.text);
        }
      }
      expect(bodies.size).toBe(1);
      for (const { accountId } of [valid, revoked, disabled]) {
        expect(await api.balanceOf(accountId)).toBe(1000);
        expect(await api.ledgerSum(accountId)).toBe(1000);
      }
    },
  );
});
