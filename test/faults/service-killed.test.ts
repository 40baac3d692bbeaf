// @module-tag runtime
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseProxy, startDatabaseProxy } from '../../scripts/contract/db-proxy.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { loadFixture } from '../support/fixture.ts';
import { auditBilling, type FundedAccount, startLoad, summarize } from '../support/load.ts';
import { answerOwingItsRefund } from '../support/owed-refund.ts';
import { type Started, startService } from '../support/service.ts';

/**
 * The service process is killed with SIGKILL (no shutdown code runs) and started again on the
 * same database. Whatever a caller saw as paid is in the ledger exactly once, no balance moved
 * without its ledger row, and a refund the dead process owed is made by the next one.
 */
const PATHS = [
  `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`,
  `/api/v1/advertiser?name=${encodeURIComponent('Nobody Ltd')}`,
  '/api/v1/domain?domain=acme-outdoor.com',
  `/api/v1/advertiser/domains?name=${encodeURIComponent('Clickwave Media Ltd')}`,
  '/api/v1/brandbid?domain=acme-outdoor.com',
  '/api/v1/account',
];
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;

describe('the service killed with SIGKILL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-killed-'));
  let db: TestDatabase;
  const running: Started[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await loadFixture(db.sql);
  });
  afterAll(async () => {
    // A service a failed test left running.
    for (const service of running) if ((await Promise.race([service.exited, 'running'])) === 'running') service.stop();
    await Promise.all(running.map((service) => service.exited));
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (databaseUrl: string) => {
    const service = await startService({
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: '0',
      PENDING_REFUNDS_DIR: path.join(dir, 'refunds'),
    });
    running.push(service);
    return service;
  };

  async function fund(count: number): Promise<FundedAccount[]> {
    const accounts: FundedAccount[] = [];
    for (let i = 0; i < count; i++) {
      const account = await createAccount(db.sql);
      const { key } = await createApiKey(db.sql, account.id);
      const { balance } = await addCredits(db.sql, account.id, 1_000_000, `killed-${account.id}`);
      accounts.push({ accountId: account.id, key, initial: balance });
    }
    return accounts;
  }

  it('in the middle of a load: after a restart every debit a caller saw is in the ' +
    'ledger once, every call cut off is refunded, and balances equal ledger sums', async () => {
    const accounts = await fund(4);
    const [{ since }] = await db.sql<{ since: number }[]>`SELECT coalesce(max(id), 0)::bigint AS since FROM ledger`;
    const first = await start(db.url);
    const load = startLoad({ baseUrl: first.url, keys: accounts.map((a) => a.key), paths: PATHS, concurrency: 8 });
    await load.until((calls) => calls.filter((c) => c.status === 200).length >= 150, 15_000, 'the service answers');

    process.kill(first.pid, 'SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const calls = await load.stop();
    const cutOff = calls.filter((call) => call.status === 0).length;
    expect(cutOff, 'calls in flight when the process died got no answer').toBeGreaterThan(0);

    const second = await start(db.url);
    const after = await fetch(`${second.url}${PATHS[0]}`, {
      headers: { authorization: `Bearer ${accounts[0].key}`, 'x-request-id': 'after-restart-1' },
    });
    expect(after.status).toBe(200);
    calls.push({
      requestId: 'after-restart-1',
      keyIndex: 0,
      path: PATHS[0],
      status: 200,
      charged: Number(after.headers.get('x-credits-charged')),
      startedAt: 0,
      ms: 0,
    });

    const audit = await auditBilling(db.sql, calls, accounts, since, { crashRecovered: true });
    console.log(
      `SIGKILL under load: ${summarize(calls)}; after the recovery ` +
        `${audit.unansweredCharged} of the ${cutOff} calls cut off are charged, ` +
        `${audit.answeredRefunded} answers delivered just before the kill were refunded`,
    );
    expect(audit.violations).toEqual([]);
    expect(audit.unansweredCharged).toBe(0);
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('a refund owed when the process dies is made by the next start on the same database', async () => {
    const [account] = await fund(1);
    const proxy: DatabaseProxy = await startDatabaseProxy(db.url);
    try {
      const first = await start(proxy.url);
      const response = await answerOwingItsRefund(db.sql, proxy, () =>
        fetch(`${first.url}${PATHS[0]}`, {
          headers: { authorization: `Bearer ${account.key}`, 'x-request-id': 'owed-at-kill-1' },
        }),
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'unavailable', credits_refunded: PRICE });

      process.kill(first.pid, 'SIGKILL');
      await first.exited;
      const ledger = () =>
        db.sql<{ kind: string }[]>`SELECT kind FROM ledger WHERE request_id = 'owed-at-kill-1' ORDER BY id`;
      expect((await ledger()).map((row) => row.kind)).toEqual(['charge']);
      expect(fs.readdirSync(path.join(dir, 'refunds'))).toHaveLength(1);

      proxy.restore();
      const second = await start(proxy.url);
      for (let waited = 0; (await ledger()).length < 2; waited += 100) {
        if (waited > 10_000) throw new Error('the owed refund was not made after the restart');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await ledger()).map((row) => row.kind)).toEqual(['charge', 'refund']);
      const [{ balance }] = await db.sql<
        { balance: number }[]
      >`SELECT balance FROM accounts WHERE id = ${account.accountId}`;
      expect(balance).toBe(account.initial);
      expect(second.printed()).toContain('Adopted 1 owed refunds left by an earlier run');
      expect(await second.stop()).toBe(0);
      expect(fs.readdirSync(path.join(dir, 'refunds'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
