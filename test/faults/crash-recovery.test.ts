// @module-tag runtime
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOperations } from '../../src/contract/operations.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { loadFixture } from '../support/fixture.ts';
import { type Started, startService } from '../support/service.ts';

/**
 * The service is killed with SIGKILL while calls it has charged wait for their answers (their
 * lookups wait on a lock, so the pool is full), and started again on the same database:
 * - a retry with the call's Idempotency-Key never pays a second time, and gets its answer;
 * - a charge whose answer never left the dead process is refunded once, by the next start.
 * Each is repeated with the kill at several moments, so a window of a few milliseconds between
 * a charge and what must commit with it would show.
 */
// Slow for a reason (20-60 s): each of its six cases starts the real service twice, the killed
// process and the one that recovers; the three moments of the kill are what the test is about.
const SUMMARY = `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`;
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;
const CALLS = 60;
const KILL_AFTER_MS = [1_500, 300, 50];

describe('the service killed with charged calls in flight', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-crash-'));
  let db: TestDatabase;
  const running: Started[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await loadFixture(db.sql);
  });
  afterAll(async () => {
    for (const service of running) if ((await Promise.race([service.exited, 'running'])) === 'running') service.stop();
    await Promise.all(running.map((service) => service.exited));
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const service = await startService({
      DATABASE_URL: db.url,
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: '0',
      PENDING_REFUNDS_DIR: path.join(dir, 'refunds'),
    });
    running.push(service);
    return service;
  };

  async function fundedKey(credits: number): Promise<{ accountId: number; key: string; initial: number }> {
    const account = await createAccount(db.sql);
    const { key } = await createApiKey(db.sql, account.id);
    const { balance } = await addCredits(db.sql, account.id, credits, `crash-${account.id}`);
    return { accountId: account.id, key, initial: balance };
  }

  /** Sends CALLS calls whose lookups wait on a lock, kills the service after `killAfterMs`, and releases the lock. */
  async function killWithCallsInFlight(
    key: string,
    tag: string,
    killAfterMs: number,
    idempotent: boolean,
  ): Promise<{ answered: number }> {
    const service = await start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const lock = db.sql.begin(async (tx) => {
      await tx`LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE`;
      locked();
      await held;
    });
    await taken;
    const calls = Array.from({ length: CALLS }, (_, i) =>
      fetch(`${service.url}${SUMMARY}`, {
        headers: {
          authorization: `Bearer ${key}`,
          'x-request-id': `${tag}-${i}`,
          ...(idempotent && { 'idempotency-key': `${tag}-key-${i}` }),
        },
      }).then(
        async (response) => {
          await response.text();
          return response.status;
        },
        () => 0,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    process.kill(service.pid, 'SIGKILL');
    await service.exited;
    const statuses = await Promise.all(calls);
    release();
    await lock;
    return { answered: statuses.filter((status) => status !== 0).length };
  }

  const chargesOf = (tag: string) =>
    db.sql<
      { request_id: string; kind: string }[]
    >`SELECT request_id, kind FROM ledger WHERE request_id LIKE ${`${tag}-%`} ORDER BY id`;

  it.each(KILL_AFTER_MS)(
    'a retry after the crash with the same Idempotency-Key never pays twice (kill after %i ms)',
    async (killAfterMs) => {
      const tag = `keyed-${killAfterMs}-${randomBytes(3).toString('hex')}`;
      const { accountId, key, initial } = await fundedKey(10_000);
      const { answered } = await killWithCallsInFlight(key, tag, killAfterMs, true);
      expect(answered, 'no call was answered before the kill').toBe(0);
      const chargedBefore = (await chargesOf(tag)).filter((row) => row.kind === 'charge').length;

      const second = await start();
      const retries = await Promise.all(
        Array.from({ length: CALLS }, async (_, i) => {
          const response = await fetch(`${second.url}${SUMMARY}`, {
            headers: {
              authorization: `Bearer ${key}`,
              'x-request-id': `${tag}-retry-${i}`,
              'idempotency-key': `${tag}-key-${i}`,
            },
          });
          return { status: response.status, body: (await response.json()) as { credits_charged: number } };
        }),
      );
      expect(retries.map((retry) => retry.status)).toEqual(Array(CALLS).fill(200));
      expect(retries.every((retry) => retry.body.credits_charged === PRICE)).toBe(true);
      const ledger = await chargesOf(tag);
      // One charge per key, whether the first call or its retry made it, and no refund: each retry got its answer.
      const perKey = new Map<string, number>();
      for (const row of ledger) {
        expect(row.kind).toBe('charge');
        const keyIndex = row.request_id.replace(`${tag}-retry-`, '').replace(`${tag}-`, '');
        perKey.set(keyIndex, (perKey.get(keyIndex) ?? 0) + 1);
      }
      expect(
        [...perKey.values()].filter((count) => count > 1),
        'keys charged twice',
      ).toEqual([]);
      expect(perKey.size).toBe(CALLS);
      const [{ balance }] = await db.sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
      expect(balance).toBe(initial - CALLS * PRICE);
      console.log(
        `kill after ${killAfterMs} ms: ${chargedBefore} of ${CALLS} keyed calls ` +
          `charged before the kill; every retry answered 200, each key paid once`,
      );
      expect(await second.stop()).toBe(0);
    },
    90_000,
  );

  it.each(KILL_AFTER_MS)(
    'charges whose answers never left the killed process are refunded once by the next start (kill after %i ms)',
    async (killAfterMs) => {
      const tag = `plain-${killAfterMs}-${randomBytes(3).toString('hex')}`;
      const { accountId, key, initial } = await fundedKey(10_000);
      const { answered } = await killWithCallsInFlight(key, tag, killAfterMs, false);
      expect(answered).toBe(0);
      const charged = (await chargesOf(tag)).length;

      const second = await start();
      const ledger = await chargesOf(tag);
      // The refunds are made before the new process takes its first call.
      expect(ledger.filter((row) => row.kind === 'charge')).toHaveLength(charged);
      expect(ledger.filter((row) => row.kind === 'refund')).toHaveLength(charged);
      const [{ balance }] = await db.sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
      expect(balance).toBe(initial);
      if (charged > 0)
        expect(second.printed()).toContain(`Refunded ${charged} charges whose answers were never delivered`);
      expect(await second.stop()).toBe(0);
      // A later start finds nothing more to refund.
      const third = await start();
      expect((await chargesOf(tag)).filter((row) => row.kind === 'refund')).toHaveLength(charged);
      expect(await third.stop()).toBe(0);
      console.log(
        `kill after ${killAfterMs} ms: ${charged} of ${CALLS} calls ` +
          `charged, none answered; all ${charged} refunded at the next start`,
      );
    },
    90_000,
  );
});
