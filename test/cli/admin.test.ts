// @module-tag runtime
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.ts';
import { projectRoot } from '../../src/config.ts';
import { getAdvertiserSummary } from '../../src/data/lookups.ts';
import { applyCheckoutEvent, recordCheckout, reversePayment } from '../../src/data/purchases.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('npm run admin', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function admin(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, api.db.sql, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err, json: () => JSON.parse(out) };
  }

  it(
    'account create → key create prints the key once ' + 'with the 200-credit grant; the key works on the API',
    async () => {
      const created = await admin('account', 'create', '--email', 'ops@example.com', '--json');
      expect(created.code).toBe(0);
      const account = created.json();
      expect(account).toMatchObject({ email: 'ops@example.com', balance: 0, disabled: false });

      const first = await admin('key', 'create', String(account.id), '--json');
      expect(first.json()).toMatchObject({ account_id: account.id, granted: 200, balance: 200 });
      const key = first.json().key;
      expect((await api.request('/api/v1/account', { key })).body).toEqual({
        key_prefix: key.slice(0, 12),
        balance: 200,
      });

      const second = await admin('key', 'create', String(account.id));
      expect(second.out).toMatch(
        /^API key for account \d+ \(shown once, never again; store it now\):\nalk_[0-9A-Za-z]{38}\nNo grant/,
      );
    },
  );

  it('key create --test makes a test key: alk_test_…, no grant, its calls free and marked X-Sandbox', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const created = await admin('key', 'create', String(account.id), '--test', '--json');
    expect(created.json()).toMatchObject({ test: true, granted: 0, balance: 0 });
    const { key } = created.json();
    expect(key).toMatch(/^alk_test_[0-9A-Za-z]{38}$/);
    const call = await api.request('/api/v1/advertiser?name=Globex%20Retail', { key });
    expect([call.status, call.headers.get('x-sandbox'), call.body.credits_charged]).toEqual([200, 'true', 0]);
  });

  it('key list and account show give display prefixes and states, never the key itself', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const { key, id } = (await admin('key', 'create', String(account.id), '--json')).json();
    await admin('key', 'revoke', String(id));
    const listed = (await admin('key', 'list', String(account.id), '--json')).json();
    expect(listed.keys).toEqual([expect.objectContaining({ id, display_prefix: key.slice(0, 12), state: 'revoked' })]);
    const shown = await admin('account', 'show', String(account.id));
    expect(shown.out).toContain(`${key.slice(0, 12)}…  revoked`);
    expect(shown.out).toContain('balance 200 credits');
    expect(shown.out).toMatch(/grant\s+\+200/);
    expect(shown.out).not.toContain(key);
    const json = (await admin('account', 'show', String(account.id), '--json')).json();
    expect(json).toMatchObject({
      id: account.id,
      balance: 200,
      keys: [{ state: 'revoked' }],
      ledger: [{ kind: 'grant', amount: 200 }],
    });
  });

  it(
    'key revoke by display prefix or by full key; the key ' +
      'answers 401 from the next request; revoking twice says so',
    async () => {
      const account = (await admin('account', 'create', '--json')).json();
      const a = (await admin('key', 'create', String(account.id), '--json')).json();
      const b = (await admin('key', 'create', String(account.id), '--json')).json();
      expect((await admin('key', 'revoke', a.display_prefix)).out).toContain('Revoked key');
      expect((await api.request('/api/v1/account', { key: a.key })).status).toBe(401);
      expect((await admin('key', 'revoke', b.key, '--json')).json()).toMatchObject({ id: b.id, changed: true });
      expect((await admin('key', 'revoke', String(b.id))).out).toContain('already revoked');
      const unknown = await admin('key', 'revoke', 'alk_nope');
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain('No key has');
    },
  );

  it("key cap sets and removes a key's daily cap", async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const { key, id } = (await admin('key', 'create', String(account.id), '--json')).json();
    const capped = await admin('key', 'cap', String(id), '--daily', '3');
    expect(capped.code).toBe(0);
    expect(capped.out).toBe(`Key #${id} (${key.slice(0, 12)}…) may spend 3 credits per UTC day from now on.\n`);
    expect((await api.request('/api/v1/advertiser?name=Acme', { key })).status).toBe(404);
    expect((await api.request('/api/v1/advertiser?name=Acme', { key })).status).toBe(403);
    const removed = await admin('key', 'cap', String(id), '--daily', 'none', '--json');
    expect(removed.json()).toEqual({ id, account_id: account.id, daily_cap: null });
    expect((await api.request('/api/v1/advertiser?name=Acme', { key })).status).toBe(404);
    const bad = await admin('key', 'cap', String(id), '--daily', '0');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--daily must be a positive whole number of credits, or "none".');
    const unknown = await admin('key', 'cap', '999999', '--daily', '5');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('No key has the id 999999.');
  });

  it(
    'credits owed lists the accounts whose refunded payments took back more than their balance; ' +
      'the ledger names the payment reversed and what is owed',
    async () => {
      expect((await admin('credits', 'owed')).out).toBe('No account owes credits.\n');
      const account = (await admin('account', 'create', '--json')).json();
      const pack = { id: 'starter', name: 'Starter', credits: 100, price: 100, currency: 'usd' };
      await recordCheckout(api.db.sql, { sessionId: 'cs_test_owed', accountId: account.id, pack });
      await applyCheckoutEvent(api.db.sql, 'cs_test_owed', { paymentIds: ['pi_test_owed'], paid: true });
      await api.db.sql`
      WITH spent AS (UPDATE accounts SET balance = balance - 60 WHERE id = ${account.id} RETURNING id, balance)
      INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint)
      SELECT id, 'charge', -60, balance, 'test' FROM spent`;
      await reversePayment(api.db.sql, ['pi_test_owed'], { disputed: true }, 'evt_test_owed');
      expect((await admin('credits', 'owed')).out).toBe(`account ${account.id}  owes 60 credits\n`);
      expect((await admin('credits', 'owed', '--json')).json()).toEqual({
        owed: [{ account_id: account.id, owed: 60 }],
      });
      expect((await admin('ledger', String(account.id))).out).toMatch(
        /reversal\s+-40\s+balance\s+0\s+reverses pi_test_owed {2}owed 60 {2}event evt_test_owed/,
      );
      expect((await admin('account', 'show', String(account.id))).out).toContain('reverses pi_test_owed  owed 60');
      const [reversal] = (await admin('ledger', String(account.id), '--json')).json().entries;
      expect(reversal).toMatchObject({ kind: 'reversal', amount: -40, reversed_payment: 'pi_test_owed', owed: 60 });
    },
  );

  it('account disable / enable: keys answer 401 while disabled', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const { key } = (await admin('key', 'create', String(account.id), '--json')).json();
    expect((await admin('account', 'disable', String(account.id))).out).toBe(`Account ${account.id} is disabled.\n`);
    expect((await api.request('/api/v1/account', { key })).status).toBe(401);
    await admin('account', 'enable', String(account.id));
    expect((await api.request('/api/v1/account', { key })).status).toBe(200);
  });

  it(
    'credits add: the same reference a second time adds ' + 'nothing and says so; another account may not reuse it',
    async () => {
      const account = (await admin('account', 'create', '--json')).json();
      const other = (await admin('account', 'create', '--json')).json();
      const first = await admin('credits', 'add', String(account.id), '500', '--reference', 'inv-2026-0001');
      expect(first.out).toBe(`Added 500 credits to account ${account.id} (reference inv-2026-0001). Balance: 500.\n`);
      const again = await admin('credits', 'add', String(account.id), '500', '--reference', 'inv-2026-0001', '--json');
      expect(again.json()).toEqual({
        account_id: account.id,
        amount: 500,
        reference: 'inv-2026-0001',
        added: false,
        balance: 500,
      });
      const elsewhere = await admin('credits', 'add', String(other.id), '500', '--reference', 'inv-2026-0001');
      expect(elsewhere.code).toBe(1);
      expect(elsewhere.err).toContain('already used for another account');
      const ledger = (await admin('ledger', String(account.id), '--json')).json();
      expect(ledger.entries).toEqual([
        expect.objectContaining({
          kind: 'purchase',
          amount: 500,
          balance_after: 500,
          payment_reference: 'inv-2026-0001',
        }),
      ]);
    },
  );

  it('ledger lists newest first and honours --limit', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    for (const ref of ['a', 'b', 'c'])
      await admin('credits', 'add', String(account.id), '10', '--reference', `limit-${account.id}-${ref}`);
    const entries = (await admin('ledger', String(account.id), '--limit', '2', '--json')).json().entries;
    expect(entries.map((e: any) => e.payment_reference)).toEqual([`limit-${account.id}-c`, `limit-${account.id}-b`]);
    expect((await admin('ledger', String(account.id))).out.trim().split('\n')).toHaveLength(3);
  });

  it('label set agency|direct|none changes what the advertiser summary reports', async () => {
    await ingestObservations(api.db.sql, [
      {
        creative_id: 'lbl-1',
        advertiser_id: 'AR42',
        advertiser_name: 'Label Me Ltd',
        country: 'GB',
        landing_url: 'https://label-me.co.uk',
        seen_on: '2026-01-01',
      },
    ]);
    expect((await admin('label', 'set', 'Label Me Ltd', 'agency', '--json')).json()).toEqual({
      advertiser_name: 'Label Me Ltd',
      advertiser_type: 'agency',
      changed: true,
    });
    expect((await getAdvertiserSummary(api.db.sql, 'Label Me Ltd'))?.advertiser_type).toBe('agency');
    expect((await admin('label', 'set', 'Label Me Ltd', 'agency')).out).toContain('(unchanged)');
    await admin('label', 'set', 'Label Me Ltd', 'none');
    expect((await getAdvertiserSummary(api.db.sql, 'Label Me Ltd'))?.advertiser_type).toBeNull();
    const bad = await admin('label', 'set', 'Label Me Ltd', 'Agency');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('agency, direct or none');
  });

  it(
    'bad input exits non-zero with a clear message: unknown ' +
      'account, negative amount, malformed id, missing reference',
    async () => {
      const unknown = await admin('account', 'show', '999999');
      expect([unknown.code, unknown.err]).toEqual([1, 'admin: Account 999999 does not exist.\n']);
      for (const argv of [
        ['credits', 'add', '1', '-5', '--reference', 'x'],
        ['credits', 'add', '1', '2.5', '--reference', 'x'],
        ['account', 'show', 'abc'],
        ['key', 'create', '0'],
        ['ledger', '1', '--limit', '-1'],
      ]) {
        const result = await admin(...argv);
        expect(result.code, argv.join(' ')).not.toBe(0);
        expect(result.err, argv.join(' ')).toMatch(/must be a positive whole number/);
      }
      const noReference = await admin('credits', 'add', '1', '5');
      expect(noReference.code).toBe(2);
      expect(noReference.err).toContain("required option '--reference <ref>' not specified");
      expect((await admin('acount', 'create')).code).toBe(2);
    },
  );

  it('the real command line: --help needs no database; commands ' +
    'run against DATABASE_URL and exit non-zero on errors', () => {
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...argv], {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_URL: api.db.url },
        encoding: 'utf8',
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const command of ['account', 'key', 'credits', 'ledger', 'label']) expect(help.stdout).toContain(command);
    expect(run('credits', 'add', '--help').stdout).toContain('--reference <ref>');
    const created = run('account', 'create', '--json');
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ balance: 0 });
    const missing = run('account', 'show', '123456789');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist');
  }, 60_000);
});
