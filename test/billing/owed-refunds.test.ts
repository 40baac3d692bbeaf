// @module-tag runtime
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseProxy, startDatabaseProxy } from '../../scripts/contract/db-proxy.ts';
import type { App } from '../../src/app.ts';
import { Billing } from '../../src/billing/billing.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../src/billing/idempotency.ts';
import { PendingRefunds } from '../../src/billing/pending-refunds.ts';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { settleOwedRefund } from '../../src/data/billing.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';
import { debit } from '../support/debit.ts';
import { loadFixture } from '../support/fixture.ts';

/**
 * The debit and the refund are separate commits, so the database can go away between them. The
 * service then owes the refund: it says so, keeps it on disk, and makes it once the database is
 * back, exactly once. The database is taken away for real: the app reaches it through a TCP relay
 * that the test cuts (every connection dropped, new ones refused) or that loses replies.
 */
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;
const SUMMARY = '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH';

describe('refunds owed while the database is away', () => {
  let api: TestApi;
  let proxy: DatabaseProxy;
  let sql: Sql;
  let refunds: PendingRefunds;
  let app: App;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-owed-'));

  beforeAll(async () => {
    api = await createTestApi();
    await loadFixture(api.db.sql);
    proxy = await startDatabaseProxy(api.db.url);
    sql = connect(proxy.url, 2, { connectTimeoutMs: 1_000, fetchArrayTypes: false });
    refunds = new PendingRefunds(sql);
    app = testApp({
      sql,
      billing: new Billing(sql, {
        now: () => new Date(),
        metrics: new Metrics(),
        refunds,
        keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
      }),
    });
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await refunds.stop();
    await sql.end({ timeout: 1 });
    await proxy.close();
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (key: string, requestId: string, path = SUMMARY) =>
    validateResponse(
      'GET',
      path,
      await app.request(path, { headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId } }),
    );

  const ledgerOf = (requestId: string) =>
    api.db.sql<{ id: number; kind: string; amount: number; refund_of: number | null }[]>`
      SELECT id, kind, amount, refund_of FROM ledger WHERE request_id = ${requestId} ORDER BY id`;

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it(
    'the database goes away after the charge, before the refund: 503 ' +
      'saying the refund is owed, made by itself once the database is back',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const requestId = 'owed-after-charge-1';
      // The lookup waits on a lock, so the charge is committed and the call still running when the database goes away.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const lock = api.db.sql.begin(async (tx) => {
        await tx`LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE`;
        locked();
        await held;
      });
      await lockTaken;
      const answer = call(key, requestId);
      await until(
        'the lookup waits for the lock',
        async () =>
          (
            await api.db.sql`
      SELECT 1 FROM pg_stat_activity WHERE application_name = 'advertiser-lookup-api' AND wait_event_type = 'Lock'`
          ).length > 0,
      );
      proxy.cut();
      const response = await answer;
      release();
      await lock;

      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: 'unavailable',
        message:
          `The service is temporarily unavailable. Retry later. The ${PRICE} credits ` +
          `charged for this call are refunded as soon as the database is back.`,
        credits_refunded: PRICE,
      });
      // The balance after the refund cannot be read while the database is away.
      expect(response.headers.get('x-credits-charged')).toBeNull();
      expect(response.headers.get('x-credits-remaining')).toBeNull();
      expect(refunds.size).toBe(1);
      expect((await ledgerOf(requestId)).map((row) => row.kind)).toEqual(['charge']);

      proxy.restore();
      const rows = await until('the owed refund is made', async () =>
        (await ledgerOf(requestId)).length === 2 ? ledgerOf(requestId) : undefined,
      );
      expect(rows).toEqual([
        { id: rows[0].id, kind: 'charge', amount: -PRICE, refund_of: null },
        { id: rows[1].id, kind: 'refund', amount: PRICE, refund_of: rows[0].id },
      ]);
      expect(refunds.size).toBe(0);
      expect(await api.balanceOf(accountId)).toBe(100);
      expect(await api.ledgerSum(accountId)).toBe(100);
    },
  );

  it(
    'the debit commits but its answer is lost: the caller is told nothing ' +
      'was charged, and that charge is refunded once the database is back',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const requestId = 'owed-uncertain-debit-1';
      // A connection already open, so the debit is the first thing whose reply is lost.
      expect((await call(key, 'owed-uncertain-warm-up', '/api/v1/account')).status).toBe(200);
      proxy.swallowReplies();
      const answer = call(key, requestId);
      await until('the debit has committed', async () => (await ledgerOf(requestId)).length === 1);
      proxy.cut();
      const response = await answer;

      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: 'unavailable',
        message: expect.stringContaining('Nothing was charged for this call.'),
        credits_refunded: 0,
      });
      expect(await api.balanceOf(accountId)).toBe(100 - PRICE);

      proxy.restore();
      const rows = await until('the uncertain debit is refunded', async () =>
        (await ledgerOf(requestId)).length === 2 ? ledgerOf(requestId) : undefined,
      );
      expect(rows.map((row) => [row.kind, row.amount, row.refund_of])).toEqual([
        ['charge', -PRICE, null],
        ['refund', PRICE, rows[0].id],
      ]);
      expect(await api.balanceOf(accountId)).toBe(100);
      expect(await api.ledgerSum(accountId)).toBe(100);
    },
  );

  it(
    'an owed refund is made at most once, never refunds a debit that did not commit, ' +
      'nor another call with the same request id, nor a charge of another request',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const keyHash = hashApiKey(key);
      const uncertain = (callId: string, requestId: string) => ({ kind: 'uncertain', callId, requestId }) as const;

      expect(await settleOwedRefund(api.db.sql, uncertain(randomUUID(), 'never-debited-1'))).toBeNull();

      // Two calls that share the caller's request id: an uncertain refund finds its own call's charge only.
      const first = await debit(api.db.sql, {
        keyHash,
        price: PRICE,
        endpoint: 'getAdvertiserSummary',
        requestId: 'reused-id-1',
      });
      const lostCallId = randomUUID();
      expect(await settleOwedRefund(api.db.sql, uncertain(lostCallId, 'reused-id-1'))).toBeNull();
      if (first.outcome !== 'debited') throw new Error('the debit failed');
      expect(
        await settleOwedRefund(api.db.sql, { kind: 'charge', chargeId: first.chargeId!, requestId: 'another-request' }),
      ).toBeNull();
      expect(await api.balanceOf(accountId)).toBe(100 - PRICE);

      const second = await debit(api.db.sql, {
        keyHash,
        price: PRICE,
        endpoint: 'getAdvertiserSummary',
        requestId: 'reused-id-1',
        callId: lostCallId,
      });
      if (second.outcome !== 'debited') throw new Error('the debit failed');
      expect(await settleOwedRefund(api.db.sql, uncertain(lostCallId, 'reused-id-1'))).toMatchObject({
        refunded: PRICE,
        balance: 100 - PRICE,
      });
      expect(await settleOwedRefund(api.db.sql, uncertain(lostCallId, 'reused-id-1'))).toBeNull();
      expect((await ledgerOf('reused-id-1')).map((row) => [row.kind, row.refund_of])).toEqual([
        ['charge', null],
        ['charge', null],
        ['refund', second.chargeId],
      ]);

      expect(
        await settleOwedRefund(api.db.sql, { kind: 'charge', chargeId: first.chargeId!, requestId: 'reused-id-1' }),
      ).toMatchObject({ refunded: PRICE, balance: 100 });
      expect(
        await settleOwedRefund(api.db.sql, { kind: 'charge', chargeId: first.chargeId!, requestId: 'reused-id-1' }),
      ).toBeNull();
      expect(await api.balanceOf(accountId)).toBe(100);
      expect(await api.ledgerSum(accountId)).toBe(100);
    },
  );

  it(
    'an owed refund is on disk before the caller hears of it, and a ' +
      'later process on the same database adopts it from one that died',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const keyHash = hashApiKey(key);
      const charged = await debit(api.db.sql, {
        keyHash,
        price: PRICE,
        endpoint: 'getAdvertiserSummary',
        requestId: 'on-disk-1',
      });
      if (charged.outcome !== 'debited') throw new Error('the debit failed');

      proxy.cut();
      const owing = new PendingRefunds(sql, { directory: dir, databaseUrl: proxy.url });
      await owing.owe({ kind: 'charge', chargeId: charged.chargeId!, requestId: 'on-disk-1' });
      expect(await owing.settle(300)).toBe(1);
      await owing.stop();
      const [file] = fs.readdirSync(dir);
      expect(file).toMatch(new RegExp(`^[0-9a-f]{16}\\.${process.pid}\\.json$`));
      expect(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))).toEqual([
        { kind: 'charge', chargeId: charged.chargeId, requestId: 'on-disk-1' },
      ]);

      // The owner "dies": its file now names a process that has ended.
      const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
      fs.renameSync(path.join(dir, file), path.join(dir, file.replace(`.${process.pid}.`, `.${deadPid}.`)));
      const otherDatabase = new PendingRefunds(api.db.sql, { directory: dir, databaseUrl: api.db.url });
      expect(await otherDatabase.adoptLeftovers()).toBe(0);

      proxy.restore();
      const heir = new PendingRefunds(api.db.sql, { directory: dir, databaseUrl: proxy.url });
      expect(await heir.adoptLeftovers()).toBe(1);
      expect(await heir.settle(5_000)).toBe(0);
      await heir.stop();
      expect(fs.readdirSync(dir)).toEqual([]);
      expect((await ledgerOf('on-disk-1')).map((row) => row.kind)).toEqual(['charge', 'refund']);
      expect(await api.balanceOf(accountId)).toBe(100);
    },
  );
});
