import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../src/contract/api-key.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { keyOf, setDailyCap } from '../../src/data/api-keys.ts';
import { debitCalls } from '../../src/data/billing.ts';
import { DEMO } from '../../src/synthetic/generator.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

/** Only in the fixture (the live data) and only in the demo dataset (the sandbox), respectively. */
const LIVE_ONLY = '/api/v1/advertiser?name=New%20Name%20Inc';
const SANDBOX_ONLY = `/api/v1/advertiser?name=${encodeURIComponent(DEMO.intermediaryName)}`;

const BILLED = [
  `/api/v1/advertiser?name=${encodeURIComponent(DEMO.sharedName)}`,
  `/api/v1/domain?domain=${DEMO.brandDomain}`,
  `/api/v1/advertiser/history?name=${encodeURIComponent(DEMO.brandName)}`,
  `/api/v1/advertiser/domains?name=${encodeURIComponent(DEMO.intermediaryName)}`,
  `/api/v1/brandbid?domain=${DEMO.brandDomain}`,
  `/api/v1/advertisers/search?q=${encodeURIComponent(DEMO.brandName.toLowerCase())}`,
];

describe('test keys: the sandbox', () => {
  let api: TestApi;
  let liveKey: string;
  let testKey: string;
  let testKeyId: number;
  let accountId: number;

  beforeAll(async () => {
    ({ api } = await createFixtureApi());
    const live = await api.newKey(500);
    liveKey = live.key;
    accountId = live.accountId;
    const created = await createApiKey(api.db.sql, accountId, { name: 'sandbox', test: true });
    testKey = created.key;
    testKeyId = created.id;
  });
  afterAll(async () => {
    await api.close();
  });

  const ledgerRows = async () =>
    (await api.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId}`)[0].n;

  it('a test key looks like alk_test_… and its first key brings no grant', async () => {
    expect(testKey).toMatch(/^alk_test_[0-9A-Za-z]{38}$/);
    const account = await createAccount(api.db.sql);
    const first = await createApiKey(api.db.sql, account.id, { test: true });
    expect([first.granted, first.balance]).toEqual([0, 0]);
    expect((await createApiKey(api.db.sql, account.id)).granted).toBe(200);
  });

  it("a test key's billed calls are free: 0 charged, balance and ledger untouched, X-Sandbox: true", async () => {
    const rowsBefore = await ledgerRows();
    for (const path of BILLED) {
      const response = await api.request(path, { key: testKey });
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.body).toMatchObject({ credits_charged: 0, credits_remaining: 500 });
      expect(response.headers.get('x-credits-charged')).toBe('0');
      expect(response.headers.get('x-sandbox')).toBe('true');
    }
    expect(await api.balanceOf(accountId)).toBe(500);
    expect(await ledgerRows()).toBe(rowsBefore);
    const live = await api.request(LIVE_ONLY, { key: liveKey });
    expect(live.headers.get('x-sandbox')).toBeNull();
  });

  it('a test key answers from the demo dataset, never the live data; a live key never from the sandbox', async () => {
    expect((await api.request(SANDBOX_ONLY, { key: testKey })).status).toBe(200);
    expect((await api.request(LIVE_ONLY, { key: testKey })).status).toBe(404);
    expect((await api.request(LIVE_ONLY, { key: liveKey })).status).toBe(200);
    expect((await api.request(SANDBOX_ONLY, { key: liveKey })).status).toBe(404);
    const notFound = await api.request(LIVE_ONLY, { key: testKey });
    expect(notFound.body).toMatchObject({ error: 'not_found', credits_charged: 0 });
    const suggestions = await api.request('/api/v1/advertiser?name=new%20name', { key: testKey });
    expect(JSON.stringify(suggestions.body.suggestions ?? [])).not.toContain('New Name Inc');
  });

  it("a live key's rules hold: 400, Idempotency-Key replay and 422, 406, 401 for an unknown test key", async () => {
    const bad = await api.request('/api/v1/advertiser?name=%20', { key: testKey });
    expect([bad.status, bad.body.error, bad.headers.get('x-sandbox')]).toEqual([400, 'missing_name', 'true']);
    const headers = { 'idempotency-key': 'sandbox-retry-1' };
    const first = await api.request(SANDBOX_ONLY, { key: testKey, headers });
    const retry = await api.request(SANDBOX_ONLY, { key: testKey, headers });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
    const reused = await api.request(`${SANDBOX_ONLY}x`, { key: testKey, headers });
    expect([reused.status, reused.body.error]).toEqual([422, 'idempotency_key_reused']);
    const csv = await api.request(SANDBOX_ONLY, { key: testKey, headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(406);
    const unknown = await api.request(SANDBOX_ONLY, { key: generateApiKey({ test: true }).key });
    expect(unknown.status).toBe(401);
  });

  it("a daily cap counts what a test key's calls would have cost and stops it like a live key", async () => {
    // The calls above, made without a cap, count too.
    const spent = (await keyOf(api.db.sql, accountId, testKeyId))!.spentToday;
    expect(spent).toBeGreaterThan(0);
    await setDailyCap(api.db.sql, accountId, testKeyId, spent + 7);
    const balance = await api.balanceOf(accountId);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await api.request(SANDBOX_ONLY, { key: testKey })).status);
      expect(statuses).toEqual([200, 200, 403, 403]);
      const refused = await api.request(SANDBOX_ONLY, { key: testKey });
      expect(refused.body).toMatchObject({
        error: 'daily_cap_reached',
        required: 3,
        daily_cap: spent + 7,
        spent_today: spent + 6,
      });
      expect(await api.balanceOf(accountId)).toBe(balance);
    } finally {
      await setDailyCap(api.db.sql, accountId, testKeyId, null);
    }
  });

  const SANDBOX_ACCOUNT_VIEW =
    "a test key reads only the sandbox's ledger and usage: none of the live account's entries, calls or caps";
  it(SANDBOX_ACCOUNT_VIEW, async () => {
    const live = await api.newKey(300);
    const test = await createApiKey(api.db.sql, live.accountId, { name: 'integration', test: true });
    await setDailyCap(api.db.sql, live.accountId, live.keyId, 100);
    await setDailyCap(api.db.sql, live.accountId, test.id, 50);
    expect((await api.request(LIVE_ONLY, { key: live.key })).status).toBe(200);
    expect((await api.request(SANDBOX_ONLY, { key: test.key })).status).toBe(200);
    // Charges carry the database's clock, not the fixture's.
    const today = new Date().toISOString().slice(0, 10);
    const usagePath = `/api/v1/account/usage?from=${today}&to=${today}`;

    // The live key reads the account's ledger, usage and every cap.
    const liveLedger = await api.request('/api/v1/account/ledger', { key: live.key });
    expect(liveLedger.body.entries.map((entry: { kind: string }) => entry.kind)).toEqual([
      'charge',
      'purchase',
      'grant',
    ]);
    const liveUsage = await api.request(usagePath, { key: live.key });
    expect(liveUsage.body.total).toEqual({ calls: 1, refunded_calls: 0, credits: 3 });
    expect(liveUsage.body.daily_caps.map((cap: { daily_cap: number }) => cap.daily_cap).sort()).toEqual([100, 50]);

    // The test key reads none of it: the sandbox has no ledger entries and no billed calls.
    const ledger = await api.request('/api/v1/account/ledger', { key: test.key });
    expect([ledger.status, ledger.headers.get('x-sandbox')]).toEqual([200, 'true']);
    expect(ledger.body).toEqual({ entries: [], next_cursor: null });
    const usage = await api.request(usagePath, { key: test.key });
    expect([usage.status, usage.headers.get('x-sandbox')]).toEqual([200, 'true']);
    expect(usage.body.total).toEqual({ calls: 0, refunded_calls: 0, credits: 0 });
    expect(usage.body.days).toEqual([{ day: today, calls: 0, refunded_calls: 0, credits: 0, operations: [] }]);
    expect(usage.body.daily_caps).toEqual([
      { key_prefix: test.displayPrefix, name: 'integration', daily_cap: 50, spent_today: 3 },
    ]);
    // The balance is the account's, as every answer to a test key says it (R17.2).
    const account = await api.request('/api/v1/account', { key: test.key });
    expect(account.body).toEqual({ key_prefix: test.displayPrefix, balance: 297 });
  });

  it('the debit takes a key as a test key only when its row says so too', async () => {
    const balance = await api.balanceOf(accountId);
    const call = {
      keyHash: hashApiKey(liveKey),
      price: 3,
      endpoint: 'getAdvertiserSummary',
      requestId: 'sandbox-mismatch',
      callId: crypto.randomUUID(),
      runId: crypto.randomUUID(),
    };
    expect(await debitCalls(api.db.sql, [{ ...call, sandbox: true }])).toEqual([{ outcome: 'unauthorized' }]);
    const asTest = await debitCalls(api.db.sql, [{ ...call, keyHash: hashApiKey(testKey) }]);
    expect(asTest).toEqual([{ outcome: 'unauthorized' }]);
    expect(await api.balanceOf(accountId)).toBe(balance);
  });

  it('every sandbox table has the columns and indexes of its live table (a migration changes both)', async () => {
    const shape = (schema: string) => api.db.sql<{ table_name: string; shape: string }[]>`
      SELECT c.relname AS table_name,
             (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                                || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
                FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)
             || ' | ' ||
             coalesce((SELECT string_agg(def, '; ' ORDER BY def)
                         FROM (SELECT regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', '') AS def
                                 FROM pg_index i WHERE i.indrelid = c.oid) AS indexes), '') AS shape
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ${schema} AND c.relkind = 'r'
         AND c.relname IN (SELECT relname FROM pg_class k JOIN pg_namespace s ON s.oid = k.relnamespace
                            WHERE s.nspname = 'sandbox' AND k.relkind = 'r')
       ORDER BY 1`;
    const sandbox = await shape('sandbox');
    expect(sandbox.map((table) => table.table_name)).toContain('observations');
    expect(sandbox).toEqual(await shape('public'));
  });
});
