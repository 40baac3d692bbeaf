import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HaCluster, startHaCluster, until } from '../../scripts/ha-cluster.ts';
import { type Follower, followPrimary } from '../../scripts/pgbouncer-follower.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { migrate } from '../../src/data/migrate.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { writeDataset } from '../../src/synthetic/write-files.ts';
import { finish, startCli, temporaryFolder } from '../cli/run-cli.ts';
import { loadFixture } from '../support/fixture.ts';
import { auditBilling, type Call, type FundedAccount, type Load, startLoad, summarize } from '../support/load.ts';
import { sample } from '../support/metrics.ts';
import { type Started, startService } from '../support/service.ts';

/**
 * Losing the database primary under load (docs/product-rules.md §20, docs/scaling.md "High
 * availability"): a pg_auto_failover monitor, two data nodes with synchronous replication and
 * pgbouncer (transaction mode) on this machine; four service processes, three through pgbouncer
 * (which scripts/pgbouncer-follower.ts points at the primary) and one straight to both nodes
 * (DATABASE_URL of two hosts). Each round runs 32 callers (hot and spread keys), callers with
 * Idempotency-Keys and an ingest, then kills the primary: `kill -9` of its postgres, or of its
 * whole node (keeper and postgres) every second round. FAILOVER_ROUNDS rounds (3 by default;
 * `npm run bench:failover` runs 10).
 */
const ROUNDS = Number(process.env.FAILOVER_ROUNDS ?? 3);
const BACK_WITHIN_MS = 30_000;
/** Each call gives up after this: an answer must come sooner (the service's own limits are lower). */
const CALL_TIMEOUT_MS = 15_000;
const ADVERTISER = `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`;
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;
const PATHS = [
  ADVERTISER,
  '/api/v1/domain?domain=acme-outdoor.com',
  `/api/v1/advertiser?name=${encodeURIComponent('No Such Advertiser Anywhere')}`,
  '/api/v1/account',
];
const OBSERVATIONS = 40_000;

type Kind = 'postgres' | 'node';
interface Round {
  round: number;
  kind: Kind;
  /** Which node was primary, and which one is after. */
  before: string;
  after: string;
  /** From the kill to the first 200 on every service, ms. */
  backMs: number;
  perService: number[];
  statuses: string;
  readyz503: number;
  idempotencyKeys: number;
}

interface IdempotentCall {
  idempotencyKey: string;
  requestId: string;
  status: number;
  charged: number;
  ms: number;
}

describe('losing the database primary under load (pg_auto_failover, synchronous replication, pgbouncer)', () => {
  const folder = temporaryFolder('alk-failover-');
  let cluster: HaCluster;
  let follower: Follower;
  let sql: Sql;
  let services: Started[] = [];
  let accounts: FundedAccount[] = [];
  let idempotentAccount: FundedAccount;
  let ingestFile: string;
  const rounds: Round[] = [];
  const log = (line: string) => console.log(`[failover] ${line}`);

  beforeAll(async () => {
    const started = performance.now();
    cluster = await startHaCluster({ log });
    log(`formation up in ${((performance.now() - started) / 1000).toFixed(1)} s (monitor, 2 nodes, pgbouncer)`);
    follower = await followPrimary({
      monitorUrl: cluster.monitorUrl,
      ini: cluster.poolerIni,
      database: cluster.database,
      adminUrl: cluster.poolerAdminUrl,
      log,
    });
    await migrate(cluster.directUrl);
    sql = connect(cluster.directUrl, 4);
    await loadFixture(sql);
    ingestFile = folder.file('observations.ndjson');
    await writeDataset({
      observations: OBSERVATIONS,
      seed: 30,
      today: new Date('2026-11-01T00:00:00Z'),
      out: ingestFile,
      crawls: null,
      labels: null,
    });
    const env = (name: string) => ({
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: 'off',
      PENDING_REFUNDS_DIR: path.join(folder.dir, `refunds-${name}`),
      DATABASE_SETUP_URL: cluster.directUrl,
    });
    services = await Promise.all([
      ...['a', 'b', 'c'].map((name) => startService({ ...env(name), DATABASE_URL: cluster.poolerUrl })),
      startService({ ...env('d'), DATABASE_URL: cluster.directUrl }),
    ]);
    // Two hot keys every caller shares, and spread keys of their own for each service's callers.
    accounts = await Promise.all(Array.from({ length: 2 + 4 * 6 }, () => fund(100_000_000)));
    idempotentAccount = await fund(100_000_000);
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled(services.map((service) => service.stop()));
    await follower?.stop();
    await sql?.end({ timeout: 1 });
    await cluster?.remove();
    folder.remove();
    if (rounds.length > 0) {
      const times = rounds.map((round) => round.backMs).sort((a, b) => a - b);
      log(`back-online times (ms), sorted: ${times.join(', ')}`);
      for (const round of rounds) log(JSON.stringify(round));
    }
  });

  async function fund(credits: number): Promise<FundedAccount> {
    const account = await createAccount(sql);
    const { key, balance: granted } = await createApiKey(sql, account.id);
    await sql`
      WITH moved AS (UPDATE accounts SET balance = ${credits} WHERE id = ${account.id} RETURNING id, balance)
      INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint, payment_reference)
      SELECT id, ${credits > granted ? 'purchase' : 'charge'}, ${credits - granted}, balance, 'test-setup',
             ${credits > granted ? `failover-${account.id}` : null}
        FROM moved`;
    return { accountId: account.id, key, initial: credits };
  }

  const lastLedgerId = async () => (await sql<{ id: number }[]>`SELECT coalesce(max(id), 0) AS id FROM ledger`)[0].id;

  /** 8 callers per service: half on the two hot keys, half on the service's own keys. */
  function startLoads(): { loads: Load[]; keyOf: string[][] } {
    const keyOf = services.map((_, s) => [
      accounts[0].key,
      accounts[1].key,
      ...accounts.slice(2 + s * 6, 2 + (s + 1) * 6).map((account) => account.key),
    ]);
    const loads = services.map((service, s) =>
      startLoad({ baseUrl: service.url, keys: keyOf[s], paths: PATHS, concurrency: 8, timeoutMs: CALL_TIMEOUT_MS }),
    );
    return { loads, keyOf };
  }

  /** Callers that send each paid call with an Idempotency-Key, then retry it at the next service. */
  function startIdempotentCallers(): { calls: IdempotentCall[]; stop: () => Promise<void> } {
    const calls: IdempotentCall[] = [];
    let running = true;
    const once = async (service: Started, idempotencyKey: string) => {
      const requestId = `idem-${randomUUID()}`;
      const started = performance.now();
      try {
        const answer = await fetch(`${service.url}${ADVERTISER}`, {
          headers: {
            authorization: `Bearer ${idempotentAccount.key}`,
            'idempotency-key': idempotencyKey,
            'x-request-id': requestId,
          },
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        await answer.arrayBuffer();
        const charged = Number(answer.headers.get('x-credits-charged') ?? 0);
        calls.push({ idempotencyKey, requestId, status: answer.status, charged, ms: performance.now() - started });
      } catch {
        calls.push({ idempotencyKey, requestId, status: 0, charged: 0, ms: performance.now() - started });
      }
    };
    const worker = async (w: number) => {
      for (let n = 0; running; n++) {
        const idempotencyKey = randomUUID();
        await once(services[(w + n) % services.length], idempotencyKey);
        await once(services[(w + n + 1) % services.length], idempotencyKey);
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    return {
      calls,
      stop: async () => {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  /**
   * No Idempotency-Key pays twice: over all its calls (first and retry, whatever each answered)
   * a key's charges net to one price at most, to exactly one when any of its calls answered 200,
   * and to none when every call answered 503. Empty when all hold.
   */
  async function auditIdempotency(calls: IdempotentCall[]): Promise<string[]> {
    const rows = await sql<{ request_id: string; kind: string; amount: number }[]>`
      SELECT request_id, kind, amount FROM ledger WHERE request_id = ANY(${calls.map((call) => call.requestId)})`;
    const net = new Map<string, number>();
    const keyOfRequest = new Map(calls.map((call) => [call.requestId, call.idempotencyKey]));
    for (const row of rows) {
      const key = keyOfRequest.get(row.request_id)!;
      net.set(key, (net.get(key) ?? 0) + row.amount);
    }
    const violations: string[] = [];
    const byKey = new Map<string, IdempotentCall[]>();
    for (const call of calls) byKey.set(call.idempotencyKey, [...(byKey.get(call.idempotencyKey) ?? []), call]);
    for (const [key, keyCalls] of byKey) {
      const paid = -(net.get(key) ?? 0);
      const statuses = keyCalls.map((call) => call.status);
      if (statuses.some((status) => status !== 200 && status !== 503))
        violations.push(`Idempotency-Key ${key}: answered ${statuses.join(', ')}`);
      if (statuses.includes(200) && paid !== PRICE)
        violations.push(`Idempotency-Key ${key} answered 200, paid ${paid}`);
      if (statuses.every((status) => status === 503) && paid !== 0)
        violations.push(`Idempotency-Key ${key} answered only 503, paid ${paid}`);
    }
    const [{ balance }] = await sql<{ balance: number }[]>`
      SELECT balance FROM accounts WHERE id = ${idempotentAccount.accountId}`;
    const [{ sum }] = await sql<{ sum: number }[]>`
      SELECT sum(amount)::bigint AS sum FROM ledger WHERE account_id = ${idempotentAccount.accountId}`;
    if (balance !== sum) violations.push(`idempotency account: balance ${balance}, ledger sum ${sum}`);
    return violations;
  }

  /** The status of one /readyz of `service`; 0 when none came within 5 s. */
  function readyzStatus(service: Started): Promise<number> {
    return fetch(`${service.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
      (answer) => answer.status,
      () => 0,
    );
  }

  /** /readyz of one pooled service, asked every 200 ms during the load: how many 503s. */
  function watchReadiness(service: Started): { stop: () => Promise<{ unready: number }> } {
    let running = true;
    let unready = 0;
    const loop = (async () => {
      while (running) {
        if ((await readyzStatus(service)) === 503) unready++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
        return { unready };
      },
    };
  }

  async function failoverRound(round: number, kind: Kind): Promise<void> {
    // A round starts from a healthy formation, even after a round that failed before its stopped
    // node rejoined: each round then fails for its own reason, not for the one before it.
    for (const node of cluster.nodes) if (node.process === undefined) cluster.rejoin(node);
    await cluster.healthy(90_000);
    const since = await lastLedgerId();
    // Each account's balance now: the audit checks this round's calls against it.
    const balances = await sql<{ id: number; balance: number }[]>`
      SELECT id, balance FROM accounts WHERE id = ANY(${accounts.map((account) => account.accountId)})`;
    const atStart = accounts.map((account) => ({
      ...account,
      initial: balances.find((row) => row.id === account.accountId)!.balance,
    }));
    const primary = await cluster.primary();
    const { loads, keyOf } = startLoads();
    const idempotent = startIdempotentCallers();
    const readiness = watchReadiness(services[0]);
    const ingestArgs = ['observations', ingestFile, '--json', '--batch-size', '1000'];
    const ingest = round <= 2 ? finish(startCli('ingest', ingestArgs, cluster.directUrl)) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const killedAt = performance.now();
    if (kind === 'postgres') cluster.killPostgres(primary);
    else cluster.stopNode(primary);
    log(`round ${round}: ${kind === 'postgres' ? 'kill -9 of the postgres' : 'whole node stopped'} of ${primary.name}`);

    // Back: every service answered a 200 to a call that started after the kill.
    const sinceKill = (load: Load) => load.calls.filter((call) => call.startedAt > killedAt);
    await until(
      async () => loads.every((load) => sinceKill(load).some((call) => call.status === 200)),
      BACK_WITHIN_MS + 30_000,
      'every service answers 200 again',
    ).catch((error: Error) => {
      const seen = loads.map((load, s) => {
        const last = sinceKill(load).at(-1);
        return `service ${s}: ${summarize(sinceKill(load))}, last ${last?.status} ${JSON.stringify(last?.body)}`;
      });
      throw new Error(`${error.message}\n${seen.join('\n')}`);
    });
    // Per service (the first three through pgbouncer, the last with both nodes in DATABASE_URL).
    const perService = loads.map((load) => {
      const first = load.calls.find((call) => call.startedAt > killedAt && call.status === 200)!;
      return Math.round(first.startedAt + first.ms - killedAt);
    });
    const backMs = Math.max(...perService);
    // The direct process's answers, second by second after the kill: where its time went.
    const timeline = new Map<number, Map<string, number>>();
    for (const call of sinceKill(loads[3])) {
      const second = Math.floor((call.startedAt - killedAt) / 1000);
      const outcome = `${call.status}${call.error ? ` ${call.error}` : ''}`;
      const counts = timeline.get(second) ?? new Map<string, number>();
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      timeline.set(second, counts);
    }
    log(
      `round ${round}: direct process by second: ${[...timeline]
        .filter(([second]) => second <= Math.ceil(perService[3] / 1000))
        .map(([second, counts]) => `${second}s ${[...counts].map(([o, n]) => `${o}×${n}`).join(' ')}`)
        .join('; ')}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const perLoad = await Promise.all(loads.map((load) => load.stop()));
    await idempotent.stop();
    const { unready } = await readiness.stop();
    // Ready again once the load is gone. While the load's calls still queue for the pool, a
    // /readyz may wait past its deadline and rightly answer 503, so the last sample taken during
    // the load does not say whether the instance recovered.
    const ready = await readyzStatus(services[0]);

    // Every call of the loads, its key's index among `accounts`.
    const calls: Call[] = perLoad.flatMap((loadCalls, s) =>
      loadCalls.map((call) => ({ ...call, keyIndex: accounts.findIndex((a) => a.key === keyOf[s][call.keyIndex]) })),
    );
    const statuses = summarize(calls);
    log(`round ${round}: back after ${Math.round(backMs)} ms; ${statuses}`);
    // The services' own lines about calls that failed, for the message of a failed expectation.
    const failures = () =>
      services
        .flatMap((service) => service.printed().split('\n'))
        .filter((line) => /internal_error|"level":50|Error/.test(line))
        .slice(-20)
        .join('\n');
    expect(
      calls.filter((call) => ![200, 404, 503].includes(call.status)),
      `every call answered 200, 404 or 503: ${statuses}\n${failures()}`,
    ).toEqual([]);
    expect(Math.max(...calls.map((call) => call.ms))).toBeLessThan(CALL_TIMEOUT_MS);

    // Owed refunds are made once a primary answers again: the audit settles within seconds.
    let audit = await auditBilling(sql, calls, atStart, since);
    let idempotency = await auditIdempotency(idempotent.calls);
    for (let tries = 0; tries < 60 && audit.violations.length + idempotency.length > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      audit = await auditBilling(sql, calls, atStart, since);
      idempotency = await auditIdempotency(idempotent.calls);
    }
    expect(audit.violations, statuses).toEqual([]);
    expect(idempotency).toEqual([]);
    expect(ready).toBe(200);

    if (ingest) {
      const first = await ingest;
      if (first.code !== 0) {
        log(`round ${round}: the ingest stopped (exit ${first.code}); the same command again`);
        const again = await finish(startCli('ingest', ingestArgs, cluster.directUrl));
        expect(again.code, again.stderr).toBe(0);
      }
      const [{ n, port }] = await sql<{ n: number; port: number }[]>`
        SELECT count(*)::integer AS n, inet_server_port() AS port FROM observations`;
      log(
        `round ${round}: ${n} observations (server port ${port}); ` +
          `the first ingest: exit ${first.code}, ${first.stderr.slice(-200)}`,
      );
      expect(n).toBeGreaterThanOrEqual(OBSERVATIONS);
      expect(await checkAggregates(sql)).toEqual([]);
    }

    // The old primary rejoins as the secondary by pg_auto_failover's procedure: `pg_autoctl run`.
    if (kind === 'node') cluster.rejoin(primary);
    await cluster.healthy(90_000);
    const after = await cluster.primary();
    rounds.push({
      round,
      kind,
      before: primary.name,
      after: after.name,
      backMs: Math.round(backMs),
      perService,
      statuses,
      readyz503: unready,
      idempotencyKeys: new Set(idempotent.calls.map((call) => call.idempotencyKey)).size,
    });
    log(`round ${round}: ${JSON.stringify(rounds.at(-1))}`);
    expect(backMs).toBeLessThan(BACK_WITHIN_MS);
  }

  it(
    'through pgbouncer: 50 parallel calls on a balance that covers 7 charge exactly 7; ' + 'an Idempotency-Key once',
    async () => {
      const pooled = services.slice(0, 3);
      const account = await fund(7 * PRICE);
      const call = (s: number, headers: Record<string, string> = {}) =>
        fetch(`${pooled[s % 3].url}${ADVERTISER}`, { headers: { authorization: `Bearer ${account.key}`, ...headers } });
      const statuses = (await Promise.all(Array.from({ length: 50 }, (_, i) => call(i)))).map(
        (answer) => answer.status,
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(7);
      expect(statuses.filter((status) => status === 402)).toHaveLength(43);
      const [{ balance }] = await sql<
        { balance: number }[]
      >`SELECT balance FROM accounts WHERE id = ${account.accountId}`;
      expect(balance).toBe(0);

      const again = await fund(10 * PRICE);
      const headers = { authorization: `Bearer ${again.key}`, 'idempotency-key': randomUUID() };
      const answers = [];
      for (const service of pooled) answers.push((await fetch(`${service.url}${ADVERTISER}`, { headers })).status);
      expect(answers).toEqual([200, 200, 200]);
      const charges = await sql<{ amount: number }[]>`
      SELECT amount FROM ledger WHERE account_id = ${again.accountId} AND kind = 'charge' AND endpoint <> 'test-setup'`;
      expect(charges).toEqual([{ amount: -PRICE }]);
    },
  );

  it('measures what synchronous replication and pgbouncer cost a paid call', async () => {
    const primary = await cluster.primary();
    const admin = connect(`postgres://postgres@127.0.0.1:${primary.port}/${cluster.database}`, 1);
    const measure = async (service: Started) => {
      const load = startLoad({ baseUrl: service.url, keys: [accounts[2].key], paths: [ADVERTISER], concurrency: 8 });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const calls = (await load.stop()).filter((call) => call.status === 200);
      const ms = calls.map((call) => call.ms).sort((a, b) => a - b);
      const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
      return `${(calls.length / 4).toFixed(0)} calls/s, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`;
    };
    const setCommit = async (value: 'on' | 'local') => {
      await admin.unsafe(`ALTER SYSTEM SET synchronous_commit = ${value}`);
      await admin`SELECT pg_reload_conf()`;
      await new Promise((resolve) => setTimeout(resolve, 500));
    };
    try {
      const results: Record<string, string> = {};
      results['direct, synchronous commit (RPO 0)'] = await measure(services[3]);
      results['pgbouncer, synchronous commit (RPO 0)'] = await measure(services[0]);
      await setCommit('local');
      results['direct, commit local only'] = await measure(services[3]);
      results['pgbouncer, commit local only'] = await measure(services[0]);
      for (const [what, result] of Object.entries(results)) log(`cost: ${what}: ${result}`);
    } finally {
      await admin.unsafe('ALTER SYSTEM RESET synchronous_commit');
      await admin`SELECT pg_reload_conf()`;
      await admin.end({ timeout: 1 });
    }
    // Every commit waits for the secondary again (RPO 0): pg_auto_failover names it synchronous.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [{ synchronous_commit }] = await sql.unsafe('SHOW synchronous_commit');
    const [{ synchronous_standby_names }] = await sql.unsafe('SHOW synchronous_standby_names');
    expect(synchronous_commit).toBe('on');
    expect(synchronous_standby_names).toMatch(/^ANY 1 \(pgautofailover_standby_\d+\)$/);
  }, 60_000);

  for (let round = 1; round <= ROUNDS; round++) {
    const kind: Kind = round % 2 === 1 ? 'postgres' : 'node';
    const what = kind === 'postgres' ? "kill -9 of the primary's postgres" : "the primary's whole node stopped";
    it(`round ${round} of ${ROUNDS}, ${what}: every call answered, back within 30 s, billing exact`, async () => {
      await failoverRound(round, kind);
    }, 240_000);
  }

  it('after the rounds: the old primaries rejoined as secondaries, the processes saw the fail-overs', async () => {
    expect(Object.values(await cluster.states()).sort()).toEqual(['primary', 'secondary']);
    const failovers = rounds.filter((round) => round.before !== round.after).length;
    for (const service of services) {
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      const primary = await cluster.primary();
      expect(sample(metrics, `alk_db_primary{server="127.0.0.1:${primary.port}"}`)).toBe(1);
      expect(sample(metrics, 'alk_db_failovers_total')).toBe(failovers);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    }
    expect(follower.switches()).toBe(failovers);
  });
});
