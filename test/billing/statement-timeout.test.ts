import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';
import { loadFixture } from '../support/fixture.ts';

/**
 * A statement that runs past STATEMENT_TIMEOUT_MS is cancelled by PostgreSQL (SQLSTATE 57014) and
 * the call answers 503 `unavailable` instead of hanging. The slowness is real: another connection
 * holds a lock the statement needs, so it waits in PostgreSQL until the timeout cancels it.
 */
const TIMEOUT_MS = 300;
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;

describe('statement timeout', () => {
  let api: TestApi;
  let sql: Sql;
  let app: App;
  beforeAll(async () => {
    api = await createTestApi();
    await loadFixture(api.db.sql);
    sql = connect(api.db.url, 4, { statementTimeoutMs: TIMEOUT_MS, fetchArrayTypes: false });
    app = testApp({ sql });
  });
  afterAll(async () => {
    await sql.end({ timeout: 1 });
    await api.close();
  });

  /** Runs `call` while another connection holds `lock`, released once the call has answered. */
  async function whileLocked<T>(lock: string, call: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const transaction = api.db.sql.begin(async (tx) => {
      await tx.unsafe(lock);
      locked();
      await released;
    });
    await holding;
    try {
      return await call();
    } finally {
      release();
      await transaction;
    }
  }

  const get = async (path: string, key: string) =>
    validateResponse('GET', path, await app.request(path, { headers: { authorization: `Bearer ${key}` } }));

  it(
    'a charged lookup cancelled by the statement timeout answers 503 with ' +
      'the full price refunded, and the ledger shows the charge and its refund',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const started = performance.now();
      const response = await whileLocked('LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE', () =>
        get('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', key),
      );
      const elapsed = performance.now() - started;

      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: 'unavailable',
        message: expect.stringContaining(`The ${PRICE} credits charged for this call were refunded.`),
        credits_refunded: PRICE,
      });
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('x-credits-charged')).toBe('0');
      expect(response.headers.get('x-credits-remaining')).toBe('100');
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 2_000);

      const requestId = response.headers.get('x-request-id');
      const rows = await api.db.sql`
      SELECT id, kind, amount, refund_of FROM ledger WHERE account_id = ${accountId} AND request_id = ${requestId}
        ORDER BY id`;
      expect(rows).toEqual([
        { id: expect.any(Number), kind: 'charge', amount: -PRICE, refund_of: null },
        { id: expect.any(Number), kind: 'refund', amount: PRICE, refund_of: rows[0].id },
      ]);
      expect(await api.balanceOf(accountId)).toBe(100);
      expect(await api.ledgerSum(accountId)).toBe(100);
    },
  );

  it(
    'a debit cancelled by the statement timeout (its ' + 'account row is locked) answers 503 and charges nothing',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const response = await whileLocked(`SELECT 1 FROM accounts WHERE id = ${Number(accountId)} FOR UPDATE`, () =>
        get('/api/v1/brandbid?domain=acme-outdoor.com', key),
      );

      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: 'unavailable',
        message: expect.stringContaining('Nothing was charged for this call.'),
        credits_refunded: 0,
      });
      expect(response.headers.get('x-credits-charged')).toBeNull();
      const rows = await api.db.sql`SELECT kind FROM ledger WHERE account_id = ${accountId}
        AND request_id = ${response.headers.get('x-request-id')}`;
      expect(rows).toEqual([]);
      expect(await api.balanceOf(accountId)).toBe(100);
    },
  );

  it('statements within the timeout are untouched: the same calls answer 200 once the lock is gone', async () => {
    const { key } = await api.newKey(100);
    expect((await get('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', key)).status).toBe(200);
    expect((await get('/api/v1/brandbid?domain=acme-outdoor.com', key)).status).toBe(200);
  });
});
