// @module-tag runtime
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseProxy, startDatabaseProxy } from '../../scripts/contract/db-proxy.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { loadFixture } from '../support/fixture.ts';
import { auditBilling, type Call, type FundedAccount, startLoad, summarize } from '../support/load.ts';
import { answerOwingItsRefund } from '../support/owed-refund.ts';
import { type Started, startService } from '../support/service.ts';

/**
 * Several service processes on one database (docs/scaling.md): whichever process a call reaches,
 * the balance is debited exactly, an Idempotency-Key is charged once, the per-key rate limit is
 * one quota, and a process that dies leaves nothing charged that its callers did not receive.
 */
const ADVERTISER = `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`;
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;
const PATHS = [ADVERTISER, '/api/v1/domain?domain=acme-outdoor.com', '/api/v1/account'];
const RATE_LIMIT = 100;

describe('three service processes on one database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-instances-'));
  let db: TestDatabase;
  let instances: Started[] = [];
  const running: Started[] = [];

  const start = async (databaseUrl: string, name: string, env: Record<string, string> = {}) => {
    const service = await startService({
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      PENDING_REFUNDS_DIR: path.join(dir, name),
      ...env,
    });
    running.push(service);
    return service;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await loadFixture(db.sql);
    instances = await Promise.all(['a', 'b', 'c'].map((name) => start(db.url, name)));
  }, 60_000);
  afterAll(async () => {
    for (const service of running) if ((await Promise.race([service.exited, 'running'])) === 'running') service.stop();
    await Promise.all(running.map((service) => service.exited));
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An account with one key holding exactly `credits` (a set-up ledger row keeps ledger and balance equal). */
  async function fund(credits: number): Promise<FundedAccount> {
    const account = await createAccount(db.sql);
    const { key, balance: granted } = await createApiKey(db.sql, account.id);
    await db.sql`
      WITH moved AS (UPDATE accounts SET balance = ${credits} WHERE id = ${account.id} RETURNING id, balance)
      INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint, payment_reference)
      SELECT id, ${credits > granted ? 'purchase' : 'charge'}, ${credits - granted}, balance, 'test-setup',
             ${credits > granted ? `instances-${account.id}` : null}
        FROM moved`;
    return { accountId: account.id, key, initial: credits };
  }

  const call = (instance: Started, key: string, route: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.url}${route}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  /** The account's charges and refunds for calls (not its set-up row). */
  const ledgerOf = (accountId: number) =>
    db.sql<{ kind: string; amount: number }[]>`
      SELECT kind, amount FROM ledger WHERE account_id = ${accountId} AND endpoint <> 'test-setup' ORDER BY id`;
  const ledgerSum = async (accountId: number) =>
    (await db.sql<{ sum: number }[]>`SELECT sum(amount)::bigint AS sum FROM ledger WHERE account_id = ${accountId}`)[0]
      .sum;

  it(
    '50 parallel calls spread over the three on a balance that covers 7: ' + 'exactly 7 are charged, balance 0',
    async () => {
      const account = await fund(7 * PRICE);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(instances[i % 3], account.key, ADVERTISER)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(7);
      expect(statuses.filter((status) => status === 402)).toHaveLength(43);
      const remaining = answers
        .filter((a) => a.status === 200)
        .map((a) => Number(a.headers.get('x-credits-remaining')));
      expect(remaining.sort((x, y) => x - y)).toEqual([0, 3, 6, 9, 12, 15, 18].map((n) => n * (PRICE / 3)));
      const [{ balance }] = await db.sql<
        { balance: number }[]
      >`SELECT balance FROM accounts WHERE id = ${account.accountId}`;
      expect(balance).toBe(0);
      const ledger = await ledgerOf(account.accountId);
      expect(ledger.filter((row) => row.kind === 'charge')).toHaveLength(7);
      expect(await ledgerSum(account.accountId)).toBe(balance);
    },
  );

  it('one Idempotency-Key is charged once, whichever process each retry reaches', async () => {
    const account = await fund(100);
    const idempotencyKey = randomUUID();
    const headers = { 'Idempotency-Key': idempotencyKey };
    const together = await Promise.all(
      Array.from({ length: 9 }, (_, i) => call(instances[i % 3], account.key, ADVERTISER, headers)),
    );
    const later = [];
    for (const instance of instances) later.push(await call(instance, account.key, ADVERTISER, headers));
    const answers = [...together, ...later];
    // A retry that finds the first call still running waits for it; one that waits too long is told 409.
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    for (const answer of later) expect(answer.status).toBe(200);
    const bodies = new Set(
      await Promise.all(answers.filter((a) => a.status === 200).map(async (a) => JSON.stringify(await a.json()))),
    );
    expect(bodies.size).toBe(1);
    const charges = (await ledgerOf(account.accountId)).filter((row) => row.kind === 'charge');
    expect(charges).toEqual([{ kind: 'charge', amount: -PRICE }]);
  });

  it('the per-key rate limit is one quota of 100 across the three, ' + 'counted down in one sequence', async () => {
    const account = await fund(100);
    const answers = await Promise.all(
      Array.from({ length: 3 * RATE_LIMIT }, (_, i) => call(instances[i % 3], account.key, '/api/v1/account')),
    );
    const admitted = answers.filter((answer) => answer.status === 200);
    expect(admitted).toHaveLength(RATE_LIMIT);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(2 * RATE_LIMIT);
    const left = admitted.map((answer) => Number(/;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]));
    expect(left.sort((x, y) => x - y)).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => i));
    // The next call to any of them is still limited: the window is the database's, not a process's.
    for (const instance of instances) expect((await call(instance, account.key, '/api/v1/account')).status).toBe(429);
  });

  it('one of three killed with SIGKILL under load: the others answer on, and every charge its callers ' +
    'did not receive is refunded by a survivor', async () => {
    const accounts = await Promise.all([fund(1_000_000), fund(1_000_000), fund(1_000_000)]);
    const [{ since }] = await db.sql<{ since: number }[]>`SELECT coalesce(max(id), 0)::bigint AS since FROM ledger`;
    // Unlimited here: the load makes far more calls than the quota the other tests use.
    const victim = await start(db.url, 'victim', { RATE_LIMIT_PER_MINUTE: '0' });
    const survivors = await Promise.all(['d', 'e'].map((name) => start(db.url, name, { RATE_LIMIT_PER_MINUTE: '0' })));
    const loads = [victim, ...survivors].map((instance, i) =>
      startLoad({ baseUrl: instance.url, keys: [accounts[i].key], paths: PATHS, concurrency: 6 }),
    );
    await loads[0].until((calls) => calls.filter((c) => c.status === 200).length >= 100, 20_000, 'the victim answers');
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;
    const victimCalls = await loads[0].stop();
    const answeredBefore = loads[1].calls.length;
    await loads[1].until((calls) => calls.length >= answeredBefore + 100, 20_000, 'a survivor answers on');
    const survivorCalls = [...(await loads[1].stop()), ...(await loads[2].stop())];
    expect(survivorCalls.filter((c) => c.status !== 200 && c.status !== 404)).toEqual([]);

    // Keyed by account: a call's keyIndex is its load's only key.
    const calls: Call[] = [
      ...victimCalls.map((c) => ({ ...c, keyIndex: 0 })),
      ...loads[1].calls.map((c) => ({ ...c, keyIndex: 1 })),
      ...loads[2].calls.map((c) => ({ ...c, keyIndex: 2 })),
    ];
    // Another process's recovery pass (every 10 s) ends the dead process's run and refunds what it never delivered.
    const victimRunEnded = async () =>
      (
        await db.sql<{ ended: boolean }[]>`
          SELECT ended_at IS NOT NULL AS ended FROM service_runs
           WHERE pid = ${victim.pid} ORDER BY started_at DESC LIMIT 1`
      )[0].ended;
    for (let waited = 0; !(await victimRunEnded()); waited += 500) {
      if (waited > 25_000) throw new Error("no other process ended the dead process's run");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    let audit = await auditBilling(db.sql, calls, accounts, since, { crashRecovered: true });
    for (let waited = 0; audit.unansweredCharged > 0 && waited < 25_000; waited += 500) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      audit = await auditBilling(db.sql, calls, accounts, since, { crashRecovered: true });
    }
    console.log(
      `SIGKILL of one of three: victim ${summarize(victimCalls)}; survivors ${summarize(survivorCalls)}; ` +
        `${audit.answeredRefunded} answers delivered just before the kill were refunded`,
    );
    expect(audit.violations).toEqual([]);
    expect(audit.unansweredCharged).toBe(0);
  }, 90_000);

  it('a refund owed by a process lost with its disk is made once by another process', async () => {
    const account = await fund(1_000);
    const proxy: DatabaseProxy = await startDatabaseProxy(db.url);
    try {
      const owing = await start(proxy.url, 'owing');
      const response = await answerOwingItsRefund(db.sql, proxy, () =>
        call(owing, account.key, ADVERTISER, { 'x-request-id': 'owed-by-lost-1' }),
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'unavailable', credits_refunded: PRICE });

      // The process dies and its folder of owed refunds goes with it.
      process.kill(owing.pid, 'SIGKILL');
      await owing.exited;
      expect(fs.readdirSync(path.join(dir, 'owing'))).toHaveLength(1);
      fs.rmSync(path.join(dir, 'owing'), { recursive: true, force: true });

      const ledger = () =>
        db.sql<{ kind: string }[]>`SELECT kind FROM ledger WHERE request_id = 'owed-by-lost-1' ORDER BY id`;
      expect((await ledger()).map((row) => row.kind)).toEqual(['charge']);
      // The charge was recorded as undelivered by the debit itself, in the database: the other
      // processes' recovery finds the dead run and refunds it.
      for (let waited = 0; (await ledger()).length < 2; waited += 200) {
        if (waited > 25_000) throw new Error('no other process made the owed refund');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await ledger()).map((row) => row.kind)).toEqual(['charge', 'refund']);
      const [{ balance }] = await db.sql<
        { balance: number }[]
      >`SELECT balance FROM accounts WHERE id = ${account.accountId}`;
      expect(balance).toBe(account.initial);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
