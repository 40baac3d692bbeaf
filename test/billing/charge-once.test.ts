// @module-tag runtime
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { DEBIT_DEADLINE_MS } from '../../src/billing/coalesced-debits.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../src/billing/idempotency.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { loadFixture } from '../support/fixture.ts';
import { parseAnswers, rawRequest, startHttpServer, type TestHttpServer } from '../support/http.ts';

/**
 * Money at the edges, in one process: a charged answer that never reached its caller is refunded
 * (unless an Idempotency-Key holds it for a retry), and a refund whose debit's outcome was lost
 * refunds that call's own charge, never another's, whatever X-Request-Id the caller sends.
 */
const SUMMARY = `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`;
const PRICE = contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!.creditCost;

describe('a charged answer that never reached its caller', () => {
  let api: TestApi;
  let sql: Sql;
  let billing: Billing;
  let http: TestHttpServer;

  beforeAll(async () => {
    api = await createTestApi();
    await loadFixture(api.db.sql);
    sql = connect(api.db.url, 4, { fetchArrayTypes: false, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000 });
    billing = new Billing(sql, {
      now: () => new Date(),
      metrics: new Metrics(),
      keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
    });
    http = await startHttpServer(testApp({ sql, billing, rateLimit: { requests: 0, windowSeconds: 60 } }));
  });
  afterAll(async () => {
    await http?.close();
    await sql?.end({ timeout: 1 });
    await api?.close();
  });

  /** Holds the lookups' table until `release`, so an answer can be abandoned before it is written. */
  async function holdLookups(): Promise<() => Promise<void>> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const lock = api.db.sql.begin(async (tx) => {
      await tx`LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE`;
      locked();
      await held;
    });
    await taken;
    return async () => {
      release();
      await lock;
    };
  }

  /**
   * Polls until `probe` holds. The bound leaves room for a debit queued behind a statement that a
   * termination stranded in postgres.js, which fails only at its deadline (DEBIT_DEADLINE_MS).
   */
  async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
    const deadline = performance.now() + DEBIT_DEADLINE_MS + 10_000;
    while (!(await probe())) {
      if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const ledgerOf = (requestId: string) =>
    api.db.sql<{ kind: string }[]>`SELECT kind FROM ledger WHERE request_id = ${requestId} ORDER BY id`;
  const charged = (requestId: string) =>
    until(`${requestId} is charged`, async () => (await ledgerOf(requestId)).length > 0);

  /** Sends a call on its own connection and closes it before any answer comes back. */
  async function abandon(key: string, requestId: string, headers: string[] = []): Promise<void> {
    const socket = net.connect(http.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        `GET ${SUMMARY} HTTP/1.1`,
        `Host: ${http.host}`,
        `Authorization: Bearer ${key}`,
        `X-Request-Id: ${requestId}`,
        ...headers,
        '',
        '',
      ].join('\r\n'),
    );
    await charged(requestId);
    socket.destroy();
  }

  it('the connection closed before the answer was written: the charge is refunded', async () => {
    const { key, accountId } = await api.newKey(100);
    const release = await holdLookups();
    try {
      await abandon(key, 'abandoned-call-1');
    } finally {
      await release();
    }
    await until('the charge is refunded', async () => (await ledgerOf('abandoned-call-1')).length === 2);
    expect((await ledgerOf('abandoned-call-1')).map((row) => row.kind)).toEqual(['charge', 'refund']);
    expect(await api.balanceOf(accountId)).toBe(100);
    const [{ n }] = await api.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM undelivered_charges`;
    expect(n).toBe(0);
  });

  it('an answer written whole is marked delivered and keeps its charge', async () => {
    const { key, accountId } = await api.newKey(100);
    const response = await fetch(`${http.url}${SUMMARY}`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': 'delivered-call-1' },
    });
    expect(response.status).toBe(200);
    await response.text();
    await billing.flushDeliveryMarks();
    const [{ n }] = await api.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM undelivered_charges u JOIN ledger l ON l.id = u.charge_id
        WHERE l.request_id = 'delivered-call-1'`;
    expect(n).toBe(0);
    expect((await ledgerOf('delivered-call-1')).map((row) => row.kind)).toEqual(['charge']);
    expect(await api.balanceOf(accountId)).toBe(100 - PRICE);
  });

  /** A GET of `target` as raw bytes, for pipelining several on one connection. */
  const rawGet = (key: string, target: string, requestId: string, headers: string[] = []) =>
    [
      `GET ${target} HTTP/1.1`,
      `Host: ${http.host}`,
      `Authorization: Bearer ${key}`,
      `X-Request-Id: ${requestId}`,
      ...headers,
      '',
      '',
    ].join('\r\n');

  const PIPELINED_BEHIND_CLOSE =
    'a billed call pipelined behind one whose answer closes the connection (a GET with a body) ' +
    'is never run, never charged';
  it(PIPELINED_BEHIND_CLOSE, async () => {
    const { key, accountId } = await api.newKey(100);
    for (const [first, body] of [
      [['Content-Length: 5'], 'hello'],
      [['Connection: close'], ''],
    ] as const) {
      const requestId = `behind-close-${first[0].split(':')[0]}`;
      const answer = await rawRequest(
        http.port,
        `${rawGet(key, '/api/v1/account', 'closing-first', [...first])}${body}${rawGet(key, SUMMARY, requestId)}`,
      );
      const answers = parseAnswers(answer.raw);
      expect(answers.map((one) => one.status)).toEqual([200]);
      expect(answers[0].headers.get('connection')).toBe('close');
      // A call that had been started would have been charged by now (a debit takes milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await ledgerOf(requestId)).toEqual([]);
    }
    expect(await api.balanceOf(accountId)).toBe(100);
    const [{ n }] = await api.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM undelivered_charges u JOIN ledger l ON l.id = u.charge_id
        WHERE l.account_id = ${accountId}`;
    expect(n).toBe(0);
  });

  const QUEUED_ANSWER_LOST =
    'charged calls pipelined on a connection the client closes are refunded at once, the queued ones too';
  it(QUEUED_ANSWER_LOST, async () => {
    const { key, accountId } = await api.newKey(100);
    const ids = ['pipelined-lost-1', 'pipelined-lost-2', 'pipelined-lost-3'];
    const release = await holdLookups();
    try {
      const socket = net.connect(http.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(ids.map((id) => rawGet(key, SUMMARY, id)).join(''));
      for (const id of ids) await charged(id);
      socket.destroy();
    } finally {
      await release();
    }
    const started = performance.now();
    await until('every charge is refunded', async () =>
      (await Promise.all(ids.map(ledgerOf))).every((rows) => rows.length === 2),
    );
    // At once, not at the next start of the service.
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const id of ids) expect((await ledgerOf(id)).map((row) => row.kind)).toEqual(['charge', 'refund']);
    expect(await api.balanceOf(accountId)).toBe(100);
  });

  it(
    'with an Idempotency-Key the charge is kept for the ' + 'retry, which receives the answer without paying again',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const idempotencyKey = `abandoned-${randomBytes(4).toString('hex')}`;
      const release = await holdLookups();
      try {
        await abandon(key, 'abandoned-keyed-1', [`Idempotency-Key: ${idempotencyKey}`]);
      } finally {
        await release();
      }
      await until('the call has settled its key', async () => {
        const [claim] = await api.db.sql<
          { state: string }[]
        >`SELECT state FROM idempotency_keys WHERE idempotency_key = ${idempotencyKey}`;
        return claim?.state === 'completed';
      });
      const retry = await fetch(`${http.url}${SUMMARY}`, {
        headers: {
          authorization: `Bearer ${key}`,
          'x-request-id': 'abandoned-keyed-2',
          'idempotency-key': idempotencyKey,
        },
      });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      await retry.text();
      await billing.flushDeliveryMarks();
      expect((await ledgerOf('abandoned-keyed-1')).map((row) => row.kind)).toEqual(['charge']);
      expect(await ledgerOf('abandoned-keyed-2')).toEqual([]);
      expect(await api.balanceOf(accountId)).toBe(100 - PRICE);
      // The replay delivered the charge: no recovery pass will ever refund it.
      const [{ n }] = await api.db.sql<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM undelivered_charges WHERE idempotency_key = ${idempotencyKey}`;
      expect(n).toBe(0);
    },
  );

  it(
    'an Idempotency-Key that expires with its charge ' + 'never delivered: the recovery pass refunds the charge',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const idempotencyKey = `expiring-${randomBytes(4).toString('hex')}`;
      const release = await holdLookups();
      try {
        await abandon(key, 'abandoned-keyed-3', [`Idempotency-Key: ${idempotencyKey}`]);
      } finally {
        await release();
      }
      await until('the call has settled its key', async () => {
        const [claim] = await api.db.sql<
          { state: string }[]
        >`SELECT state FROM idempotency_keys WHERE idempotency_key = ${idempotencyKey}`;
        return claim?.state === 'completed';
      });
      expect(await billing.recover()).toBe(0);
      expect(await api.balanceOf(accountId)).toBe(100 - PRICE);

      const later = new Billing(sql, {
        now: () => new Date(Date.now() + IDEMPOTENCY_KEY_LIFETIME_MS + 1_000),
        metrics: new Metrics(),
        keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
      });
      expect(await later.recover()).toBe(1);
      expect(await later.recover()).toBe(0);
      expect((await ledgerOf('abandoned-keyed-3')).map((row) => row.kind)).toEqual(['charge', 'refund']);
      expect(await api.balanceOf(accountId)).toBe(100);
    },
  );

  it('a debit terminated in PostgreSQL while every call sends the same X-Request-Id: its ' +
    'owed refund finds no charge of its own and refunds none of the calls that were answered', async () => {
    const { key, accountId } = await api.newKey(1_000);
    const requestId = 'the-same-id-every-time';
    const call = () =>
      fetch(`${http.url}${SUMMARY}`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId } });
    // A terminated connection fails the next statement sent on it (porsager/postgres#1223), so a
    // call after a termination may answer 503 without being charged; such rounds are repeated.
    const rounds = 5;
    let terminated = 0;
    let answered = 0;
    for (let attempt = 0; terminated < rounds; attempt++) {
      expect(attempt).toBeLessThan(rounds * 4);
      // A call with the id is charged and answered…
      const first = await call();
      const firstBody = await first.json();
      if (first.status === 200) answered++;
      else expect([first.status, firstBody]).toMatchObject([503, { error: 'unavailable' }]);
      // …then the next call with the same id has its debit terminated while it waits for the account's row.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const lock = api.db.sql.begin(async (tx) => {
        await tx`SELECT 1 FROM accounts WHERE id = ${accountId} FOR UPDATE`;
        locked();
        await held;
      });
      await taken;
      let settled = false;
      const failing = call().finally(() => (settled = true));
      const deadline = performance.now() + DEBIT_DEADLINE_MS + 10_000;
      while (!settled) {
        const [waiting] = await api.db.sql<{ pid: number }[]>`
          SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%debit_credits%'`;
        if (waiting) {
          await api.db.sql`SELECT pg_terminate_backend(${waiting.pid})`;
          terminated++;
          break;
        }
        if (performance.now() > deadline) throw new Error('timed out waiting until the debit waits for the row');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const failed = await failing;
      release();
      await lock;
      // The row was held until now, so this call can never have been charged.
      expect(failed.status).toBe(503);
      expect(await failed.json()).toMatchObject({ error: 'unavailable', credits_refunded: 0 });
      await until('every owed refund is settled', async () => (await billing.refunds.settle(0)) === 0);
    }
    expect(answered).toBeGreaterThan(0);
    const kinds = (await ledgerOf(requestId)).map((row) => row.kind);
    expect(kinds.filter((kind) => kind === 'charge').length - kinds.filter((kind) => kind === 'refund').length).toBe(
      answered,
    );
    expect(await api.balanceOf(accountId)).toBe(1_000 - answered * PRICE);
    expect(await api.ledgerSum(accountId)).toBe(1_000 - answered * PRICE);
  }, 240_000); // Each round may wait out one stranded statement's deadline (see until).
});
