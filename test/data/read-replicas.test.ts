// @module-tag runtime
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onReplica, type StreamingPair, startStreamingPair } from '../../scripts/streaming-replica.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { migrate } from '../../src/data/migrate.ts';
import { validateResponse } from '../support/contract.ts';
import { loadFixture } from '../support/fixture.ts';
import { auditBilling, type Call, type FundedAccount, startLoad } from '../support/load.ts';
import { sample } from '../support/metrics.ts';
import { type Started, startService } from '../support/service.ts';

/**
 * Read replicas (DATABASE_READ_URL) on a real streaming replica: the lookups read there, the
 * debits are written on the primary, and a replica that stops mid-load or falls behind
 * READ_MAX_LAG_MS is skipped without a single error reaching a customer.
 */
const NOT_FOUND = `/api/v1/advertiser?name=${encodeURIComponent('Nobody Ltd')}`;
const LOOKUPS = [
  `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`,
  NOT_FOUND,
  '/api/v1/domain?domain=acme-outdoor.com',
  `/api/v1/advertiser/history?name=${encodeURIComponent('Acme Outdoor GmbH')}`,
  `/api/v1/advertiser/domains?name=${encodeURIComponent('Clickwave Media Ltd')}`,
  '/api/v1/brandbid?domain=acme-outdoor.com',
  '/api/v1/advertisers/search?q=acme',
];
const expectedStatus = (call: Pick<Call, 'path'>) => (call.path === NOT_FOUND ? 404 : 200);
const MAX_LAG_MS = 500;

interface DatabaseState {
  database: string;
  role: string;
  state: string;
  lag_ms: number | null;
}

describe('read replicas', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-read-replicas-'));
  let pair: StreamingPair | undefined;
  let primary: Sql;
  let service: Started | undefined;
  let primaryName: string;
  let replicaName: string;

  beforeAll(async () => {
    pair = await startStreamingPair();
    await migrate(pair.primaryUrl);
    primary = connect(pair.primaryUrl, 4);
    await loadFixture(primary);
    primaryName = `127.0.0.1:${new URL(pair.primaryUrl).port}/alk`;
    replicaName = `127.0.0.1:${pair.replicaPort}/alk`;
    service = await startService({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      READ_MAX_LAG_MS: String(MAX_LAG_MS),
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: '0',
      PENDING_REFUNDS_DIR: path.join(dir, 'refunds'),
    });
  }, 60_000);
  afterAll(async () => {
    if (service && (await Promise.race([service.exited, 'running'])) === 'running') await service.stop();
    await primary?.end({ timeout: 1 });
    pair?.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function fund(count: number): Promise<FundedAccount[]> {
    const accounts: FundedAccount[] = [];
    for (let i = 0; i < count; i++) {
      const account = await createAccount(primary);
      const { key } = await createApiKey(primary, account.id);
      const { balance } = await addCredits(primary, account.id, 1_000_000, `replicas-${account.id}`);
      accounts.push({ accountId: account.id, key, initial: balance });
    }
    return accounts;
  }

  const lastLedgerId = async () =>
    (await primary<{ id: number }[]>`SELECT coalesce(max(id), 0)::bigint AS id FROM ledger`)[0].id;

  /** The replica's state on /readyz, which stays ready whatever the replica does. */
  async function replicaOnReadyz(): Promise<DatabaseState> {
    const response = await fetch(`${service!.url}/readyz`);
    expect(response.status).toBe(200);
    const { body } = await validateResponse('GET', '/readyz', response);
    return (body as { databases: DatabaseState[] }).databases[1];
  }

  /** Lookups run on each database so far, from /metrics. */
  async function lookupsOn(): Promise<{ primary: number; replica: number; text: string }> {
    const text = await (await fetch(`${service!.url}/metrics`)).text();
    const on = (database: string) => sample(text, `alk_db_lookups_total{database="${database}"}`) ?? Number.NaN;
    return { primary: on(primaryName), replica: on(replicaName), text };
  }

  async function waitUntil(what: string, check: () => Promise<boolean>, limitMs = 15_000): Promise<void> {
    for (const deadline = performance.now() + limitMs; !(await check()); ) {
      if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** What the service's sessions on the replica ran last, apart from its checks of the replica. */
  const lookupsSeenOnReplica = () =>
    onReplica<{ query: string }>(
      pair!,
      `SELECT query FROM pg_stat_activity WHERE application_name = 'advertiser-lookup-api'
         AND query NOT LIKE '%pg_last_wal_replay_lsn%'`,
    );

  it('lookups read from the replica, debits are written on the primary; /readyz and /metrics show both', async () => {
    const [account] = await fund(1);
    const since = await lastLedgerId();
    const before = await lookupsOn();
    const calls: Call[] = [];
    for (let round = 0; round < 3; round++) {
      for (const lookup of LOOKUPS) {
        const requestId = `replica-read-${round}-${calls.length}`;
        const response = await fetch(`${service!.url}${lookup}`, {
          headers: { authorization: `Bearer ${account.key}`, 'x-request-id': requestId },
        });
        const call = { requestId, keyIndex: 0, path: lookup, startedAt: 0, ms: 0 };
        calls.push({ ...call, status: response.status, charged: Number(response.headers.get('x-credits-charged')) });
        expect(response.status, lookup).toBe(expectedStatus(call));
      }
    }
    const after = await lookupsOn();
    // A check slower than its timeout on a busy machine may send a lookup or two to the primary.
    expect(after.replica - before.replica).toBeGreaterThanOrEqual(calls.length - 2);
    expect(after.replica - before.replica + after.primary - before.primary).toBe(calls.length);
    expect(sample(after.text, `alk_db_replica_up{database="${replicaName}"}`)).toBe(1);
    expect(sample(after.text, `alk_db_replica_lag_seconds{database="${replicaName}"}`)).toBeLessThan(MAX_LAG_MS / 1000);
    // The replica itself saw them: the service's sessions there last ran lookups (its checks have their own).
    expect((await lookupsSeenOnReplica()).length).toBeGreaterThan(0);

    const response = await fetch(`${service!.url}/readyz`);
    const { body } = await validateResponse('GET', '/readyz', response);
    expect(response.status).toBe(200);
    expect(body).toEqual({
      status: 'ready',
      databases: [
        { database: primaryName, role: 'primary', state: 'up', lag_ms: 0 },
        { database: replicaName, role: 'replica', state: 'up', lag_ms: expect.any(Number) },
      ],
    });
    // Every charge is in the primary's ledger (a replica cannot write), and the balance is exact.
    expect((await auditBilling(primary, calls, [account], since)).violations).toEqual([]);
  });

  it(
    'a replica stopped mid-load: every call answers as usual from the primary, /readyz stays ready; ' +
      'restarted, the lookups return to it',
    async () => {
      const accounts = await fund(3);
      const since = await lastLedgerId();
      const keys = accounts.map((a) => a.key);
      const load = startLoad({ baseUrl: service!.url, keys, paths: LOOKUPS, concurrency: 6 });
      try {
        await load.until((calls) => calls.length >= 60, 15_000, 'the replica serves the load');
        pair!.stopReplica();
        await waitUntil('/readyz shows the replica down', async () => (await replicaOnReadyz()).state === 'down');
        expect(await replicaOnReadyz()).toEqual({
          database: replicaName,
          role: 'replica',
          state: 'down',
          lag_ms: null,
        });
        const down = await lookupsOn();
        expect(sample(down.text, `alk_db_replica_up{database="${replicaName}"}`)).toBe(0);
        await waitUntil(
          'the primary answered 50 lookups',
          async () => (await lookupsOn()).primary >= down.primary + 50,
        );
        expect((await lookupsOn()).replica).toBe(down.replica);

        pair!.startReplica();
        await waitUntil('/readyz shows the replica up', async () => (await replicaOnReadyz()).state === 'up');
        const back = await lookupsOn();
        await waitUntil(
          'the replica answered 50 lookups',
          async () => (await lookupsOn()).replica >= back.replica + 50,
        );
      } finally {
        await load.stop();
      }
      expect(load.calls.filter((call) => call.status !== expectedStatus(call))).toEqual([]);
      expect((await auditBilling(primary, load.calls, accounts, since)).violations).toEqual([]);
      expect(service!.printed()).toContain(`Read replica ${replicaName} is down`);
      expect(service!.printed()).toContain(`Read replica ${replicaName} serves lookups again`);
    },
  );

  it('a replica further behind than READ_MAX_LAG_MS: the primary answers the lookups until it catches up', async () => {
    const accounts = await fund(2);
    const since = await lastLedgerId();
    const keys = accounts.map((a) => a.key);
    const load = startLoad({ baseUrl: service!.url, keys, paths: LOOKUPS, concurrency: 4 });
    try {
      await load.until((calls) => calls.length >= 20, 15_000, 'the replica serves the load');
      // The load's debits keep writing on the primary while the replica replays nothing.
      await onReplica(pair!, 'SELECT pg_wal_replay_pause()');
      await waitUntil('/readyz shows the replica lagging', async () => (await replicaOnReadyz()).state === 'lagging');
      expect((await replicaOnReadyz()).lag_ms).toBeGreaterThan(MAX_LAG_MS);
      const skipped = await lookupsOn();
      expect(sample(skipped.text, `alk_db_replica_up{database="${replicaName}"}`)).toBe(1);
      const lagSeconds = sample(skipped.text, `alk_db_replica_lag_seconds{database="${replicaName}"}`);
      expect(lagSeconds).toBeGreaterThan(MAX_LAG_MS / 1000);
      await waitUntil(
        'the primary answered 30 lookups',
        async () => (await lookupsOn()).primary >= skipped.primary + 30,
      );
      expect((await lookupsOn()).replica).toBe(skipped.replica);

      await onReplica(pair!, 'SELECT pg_wal_replay_resume()');
      await waitUntil('/readyz shows the replica up', async () => (await replicaOnReadyz()).state === 'up');
      const caughtUp = await lookupsOn();
      await waitUntil(
        'the replica answered 30 lookups',
        async () => (await lookupsOn()).replica >= caughtUp.replica + 30,
      );
    } finally {
      await onReplica(pair!, 'SELECT pg_wal_replay_resume()').catch(() => {});
      await load.stop();
    }
    expect(load.calls.filter((call) => call.status !== expectedStatus(call))).toEqual([]);
    expect((await auditBilling(primary, load.calls, accounts, since)).violations).toEqual([]);
  });
});
