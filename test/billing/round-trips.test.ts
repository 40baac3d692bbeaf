import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { Billing } from '../../src/billing/billing.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../src/billing/idempotency.ts';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import type { TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

/**
 * R5.8: a billed request costs one round trip for the key check and the debit
 * together and one for the query. Counted at the client: every statement postgres.js sends.
 */
describe('database round trips per request', () => {
  let api: TestApi;
  let key: string;
  let counted: Sql;
  let app: App;
  let billing: Billing;
  const DELIVERY_MARK = /DELETE FROM undelivered_charges/;
  let statements: string[] = [];

  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
    // One connection, so each statement's first use (when postgres.js describes it before it
    // prepares it) happens once, in the warm-up below, and every later call runs prepared.
    counted = connect(api.db.url, 1, { onStatement: (statement) => statements.push(statement) });
    billing = new Billing(counted, {
      now: () => NOW,
      metrics: new Metrics(),
      keyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
    });
    app = testApp({ sql: counted, now: () => NOW, billing });
  });
  afterAll(async () => {
    await counted.end();
    await api.close();
  });

  async function roundTrips(path: string, apiKey: string | null = key) {
    const headers: Record<string, string> = apiKey === null ? {} : { Authorization: `Bearer ${apiKey}` };
    await app.request(path, { headers }); // warm-up: prepares the statements on the connection
    await billing.flushDeliveryMarks();
    statements = [];
    const response = await validateResponse('GET', path, await app.request(path, { headers }));
    // Delivery marks are written after the answer, in batches, off the request path (counted below).
    const onThePath = statements.filter((statement) => !DELIVERY_MARK.test(statement));
    return { status: response.status, statements: onThePath.map((s) => s.replace(/\s+/g, ' ').trim()) };
  }

  const BILLED = [
    ['advertiser summary', '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH'],
    ['domain summary', '/api/v1/domain?domain=acme-outdoor.com'],
    ['advertiser history', '/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH'],
    ['advertiser landing domains', '/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH'],
    ['brand-bid report', '/api/v1/brandbid?domain=acme-outdoor.com'],
    ['advertiser search', '/api/v1/advertisers/search?q=acme'],
  ] as const;

  it.each(BILLED)('%s, 200: two statements, the key check with the debit, then the query', async (_name, path) => {
    const { status, statements } = await roundTrips(path);
    expect(status).toBe(200);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/FROM debit_credits\(/);
    expect(statements[1]).not.toMatch(/debit_credits|ledger|api_keys/);
  });

  it('delivery marks are written off the request path, many answers to a statement', async () => {
    const path = BILLED[0][1];
    await roundTrips(path);
    await billing.flushDeliveryMarks();
    statements = [];
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.request(path, { headers: { Authorization: `Bearer ${key}` } })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    await billing.flushDeliveryMarks();
    const marks = statements.filter((statement) => DELIVERY_MARK.test(statement)).length;
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThan(5);
    const [{ n }] = await api.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM undelivered_charges`;
    expect(n).toBe(0);
  });

  it(
    'a key with a daily cap: the cap is checked in the debit statement, still two statements; ' +
      'a call the cap refuses costs one',
    async () => {
      const [{ id }] = await api.db.sql<{ id: number }[]>`
      SELECT id FROM api_keys WHERE key_hash = ${hashApiKey(key)}`;
      const [{ account_id }] = await api.db.sql<
        { account_id: number }[]
      >`SELECT account_id FROM api_keys WHERE id = ${id}`;
      await setDailyCap(api.db.sql, account_id, id, 1_000_000);
      try {
        const capped = await roundTrips(BILLED[0][1]);
        expect(capped.status).toBe(200);
        expect(capped.statements).toHaveLength(2);
        expect(capped.statements[0]).toMatch(/FROM debit_credits\(/);
        await setDailyCap(api.db.sql, account_id, id, 1);
        const refused = await roundTrips(BILLED[0][1]);
        expect(refused.status).toBe(403);
        expect(refused.statements).toHaveLength(1);
        expect(refused.statements[0]).toMatch(/FROM debit_credits\(/);
      } finally {
        await setDailyCap(api.db.sql, account_id, id, null);
      }
    },
  );

  it('a data 404 costs the same two statements and a third, the search for its suggestions', async () => {
    const { status, statements } = await roundTrips('/api/v1/advertiser?name=Nobody');
    expect(status).toBe(404);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/FROM debit_credits\(/);
    expect(statements[2]).toMatch(/advertiser_names/);
  });

  it('the free account endpoint: one statement, which reads the balance', async () => {
    const { status, statements } = await roundTrips('/api/v1/account');
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM debit_credits\(/);
  });

  it('a 400 costs one statement (the key lookup that decides 401 before 400), a malformed key none', async () => {
    const bad = await roundTrips('/api/v1/advertiser?name=%20');
    expect(bad.status).toBe(400);
    expect(bad.statements).toHaveLength(1);
    const malformed = await roundTrips('/api/v1/advertiser?name=Acme', 'alk_not-a-key');
    expect(malformed.status).toBe(401);
    expect(malformed.statements).toHaveLength(0);
  });
});
