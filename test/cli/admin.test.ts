import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.ts';
import { projectRoot } from '../../src/config.ts';
import { advertiserSummary } from '../../src/db/lookups.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('npm run admin', () => {
  let api: TestApi;
  beforeAll(async () => { api = await createTestApi(); });
  afterAll(async () => { await api.close(); });

  async function admin(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, api.db.sql, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err, json: () => JSON.parse(out) };
  }

  it('account create → key create prints the key once with the 200-credit grant; the key works on the API', async () => {
    const created = await admin('account', 'create', '--email', 'ops@example.com', '--json');
    expect(created.code).toBe(0);
    const account = created.json();
    expect(account).toMatchObject({ email: 'ops@example.com', balance: 0, disabled: false });

    const first = await admin('key', 'create', String(account.id), '--json');
    expect(first.json()).toMatchObject({ account_id: account.id, granted: 200, balance: 200 });
    const key = first.json().key;
    expect((await api.request('/api/v1/account', { key })).body).toEqual({ key_prefix: key.slice(0, 12), balance: 200 });

    const second = await admin('key', 'create', String(account.id));
    expect(second.out).toMatch(/^API key for account \d+ \(shown once, never again; store it now\):\nalk_[0-9A-Za-z]{38}\nNo grant/);
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
    expect(json).toMatchObject({ id: account.id, balance: 200, keys: [{ state: 'revoked' }], ledger: [{ kind: 'grant', amount: 200 }] });
  });

  it('key revoke by display prefix or by full key; the key answers 401 from the next request; revoking twice says so', async () => {
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
  });

  it('account disable / enable: keys answer 401 while disabled', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const { key } = (await admin('key', 'create', String(account.id), '--json')).json();
    expect((await admin('account', 'disable', String(account.id))).out).toBe(`Account ${account.id} is disabled.\n`);
    expect((await api.request('/api/v1/account', { key })).status).toBe(401);
    await admin('account', 'enable', String(account.id));
    expect((await api.request('/api/v1/account', { key })).status).toBe(200);
  });

  it('credits add: the same reference a second time adds nothing and says so; another account may not reuse it', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    const other = (await admin('account', 'create', '--json')).json();
    const first = await admin('credits', 'add', String(account.id), '500', '--reference', 'inv-2026-0001');
    expect(first.out).toBe(`Added 500 credits to account ${account.id} (reference inv-2026-0001). Balance: 500.\n`);
    const again = await admin('credits', 'add', String(account.id), '500', '--reference', 'inv-2026-0001', '--json');
    expect(again.json()).toEqual({ account_id: account.id, amount: 500, reference: 'inv-2026-0001', added: false, balance: 500 });
    const elsewhere = await admin('credits', 'add', String(other.id), '500', '--reference', 'inv-2026-0001');
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.err).toContain('already used for another account');
    const ledger = (await admin('ledger', String(account.id), '--json')).json();
    expect(ledger.entries).toEqual([expect.objectContaining({ kind: 'purchase', amount: 500, balance_after: 500, payment_reference: 'inv-2026-0001' })]);
  });

  it('ledger lists newest first and honours --limit', async () => {
    const account = (await admin('account', 'create', '--json')).json();
    for (const ref of ['a', 'b', 'c']) await admin('credits', 'add', String(account.id), '10', '--reference', `limit-${account.id}-${ref}`);
    const entries = (await admin('ledger', String(account.id), '--limit', '2', '--json')).json().entries;
    expect(entries.map((e: any) => e.payment_reference)).toEqual([`limit-${account.id}-c`, `limit-${account.id}-b`]);
    expect((await admin('ledger', String(account.id))).out.trim().split('\n')).toHaveLength(3);
  });

  it('label set agency|direct|none changes what the advertiser summary reports', async () => {
    await ingestObservations(api.db.sql, [
      { creative_id: 'lbl-1', advertiser_id: 'AR42', advertiser_name: 'Label Me Ltd', country: 'GB', landing_url: 'https://label-me.co.uk', seen_on: '2026-01-01' },
    ]);
    expect((await admin('label', 'set', 'Label Me Ltd', 'agency', '--json')).json()).toEqual({ advertiser_name: 'Label Me Ltd', advertiser_type: 'agency', changed: true });
    expect((await advertiserSummary(api.db.sql, 'Label Me Ltd'))?.advertiser_type).toBe('agency');
    expect((await admin('label', 'set', 'Label Me Ltd', 'agency')).out).toContain('(unchanged)');
    await admin('label', 'set', 'Label Me Ltd', 'none');
    expect((await advertiserSummary(api.db.sql, 'Label Me Ltd'))?.advertiser_type).toBeNull();
    const bad = await admin('label', 'set', 'Label Me Ltd', 'Agency');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('agency, direct or none');
  });

  it('bad input exits non-zero with a clear message: unknown account, negative amount, malformed id, missing reference', async () => {
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
  });

  it('the real command line: --help needs no database; commands run against DATABASE_URL and exit non-zero on errors', () => {
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...argv], { cwd: projectRoot, env: { ...process.env, DATABASE_URL: api.db.url }, encoding: 'utf8' });
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
