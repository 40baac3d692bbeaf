import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { connect, type Sql } from '../../src/db/client.ts';
import type { TestApi } from '../support/api.ts';
import { validateResponse } from '../support/contract.ts';
import { NOW, createFixtureApi } from '../support/fixture.ts';

/**
 * Issue 5, target 4: a billed request costs one round trip for the key check and the debit
 * together and one for the query. Counted at the client: every statement postgres.js sends.
 */
describe('database round trips per request', () => {
  let api: TestApi;
  let key: string;
  let counted: Sql;
  let app: App;
  let statements: string[] = [];

  beforeAll(async () => {
    ({ api, key } = await createFixtureApi());
    // One connection, so each statement's first use (when postgres.js describes it before it
    // prepares it) happens once, in the warm-up below, and every later call runs prepared.
    counted = connect(api.db.url, 1, { onStatement: (statement) => statements.push(statement) });
    app = createApp({ sql: counted, now: () => NOW });
  });
  afterAll(async () => {
    await counted.end();
    await api.close();
  });

  async function roundTrips(path: string, apiKey: string | null = key) {
    const headers: Record<string, string> = apiKey === null ? {} : { Authorization: `Bearer ${apiKey}` };
    await app.request(path, { headers }); // warm-up: prepares the statements on the connection
    statements = [];
    const response = await validateResponse('GET', path, await app.request(path, { headers }));
    return { status: response.status, statements: statements.map((s) => s.replace(/\s+/g, ' ').trim()) };
  }

  const BILLED = [
    ['advertiser summary', '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH'],
    ['domain summary', '/api/v1/domain?domain=acme-outdoor.com'],
    ['advertiser history', '/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH'],
    ['advertiser landing domains', '/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH'],
    ['brand-bid report', '/api/v1/brandbid?domain=acme-outdoor.com'],
  ] as const;

  it.each(BILLED)('%s, 200: two statements, the key check with the debit, then the query', async (_name, path) => {
    const { status, statements } = await roundTrips(path);
    expect(status).toBe(200);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/FROM debit_credits\(/);
    expect(statements[1]).not.toMatch(/debit_credits|ledger|api_keys/);
  });

  it('a data 404 costs the same two statements', async () => {
    const { status, statements } = await roundTrips('/api/v1/advertiser?name=Nobody');
    expect(status).toBe(404);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/FROM debit_credits\(/);
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
