import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithFrameworkFloor, FLOOR_OPERATION } from '../scripts/bench/operations.ts';
import type { App } from '../src/app.ts';
import { createAccount, createApiKey } from '../src/data/accounts.ts';
import { testApp, testAppDependencies } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

describe(
  'the app composed from public parts: the benchmark ' + 'floor behind the same middleware, never in the service',
  () => {
    let db: TestDatabase;
    let withFloor: App;
    let service: App;
    let key: string;
    let accountId: number;
    const path = FLOOR_OPERATION.path;
    beforeAll(async () => {
      db = await createTestDatabase();
      withFloor = appWithFrameworkFloor(testAppDependencies({ sql: db.sql }));
      service = testApp({ sql: db.sql });
      accountId = (await createAccount(db.sql)).id;
      key = (await createApiKey(db.sql, accountId)).key;
    });
    afterAll(async () => {
      await db.drop();
    });

    const ledgerRows = async () => (await db.sql`SELECT 1 FROM ledger WHERE account_id = ${accountId}`).length;

    it('answers a well-formed key with 200, its request id echoed, and charges nothing', async () => {
      const response = await withFloor.request(path, {
        headers: { authorization: `Bearer ${key}`, 'x-request-id': 'floor-request-1' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ floor: true });
      expect(response.headers.get('x-request-id')).toBe('floor-request-1');
      expect(response.headers.get('x-credits-charged')).toBeNull();
      expect(await ledgerRows()).toBe(1); // the first-key grant only
    });

    it(
      'passes contract routing and authentication like any ' + 'operation: 405 for another method, 401 without a key',
      async () => {
        expect(
          (await withFloor.request(path, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).status,
        ).toBe(405);
        expect((await withFloor.request(path)).status).toBe(401);
        expect((await withFloor.request(path, { headers: { authorization: 'Bearer alk_malformed' } })).status).toBe(
          401,
        );
      },
    );

    it('does not exist in the app the service builds', async () => {
      const response = await service.request(path, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe('not_found');
    });

    it('leaves the contract operations served as before', async () => {
      const response = await withFloor.request('/api/v1/account', { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect((await response.json()).balance).toBe(200);
    });
  },
);
