import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { FIRST_KEY_GRANT } from '../../src/data/accounts.ts';
import { type AccountPageHarness, createKeyOnPage, PASSWORD, startAccountPage } from '../support/account-page.ts';
import type { WebClient } from '../support/web.ts';

describe('the API keys page', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  async function createKey(browser: WebClient, name: string) {
    return createKeyOnPage(browser, { name });
  }

  async function accountCall(key: string) {
    return page.app.request('/api/v1/account', { headers: { Authorization: `Bearer ${key}` } });
  }

  it(
    'a new key’s plaintext is shown once, on the page its creation redirects to, and stored only as its ' + 'SHA-256',
    async () => {
      const browser = await page.signedIn('once@example.com');
      const { key, page: created, posted } = await createKey(browser, 'production');
      expect(key).toMatch(/^alk_[0-9A-Za-z]{38}$/);
      expect(posted.text).not.toContain(key.slice(12));
      expect(created.text).toContain('this is the only time it is shown');
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect((await accountCall(key)).status).toBe(200);

      for (const later of ['/account/keys/new', '/account/keys', '/account', '/account/ledger', '/account/ledger.csv'])
        expect((await browser.get(later)).text).not.toContain(key.slice(12));
      const [row] = await page.db.sql<{ key_hash: Buffer; name: string; display_prefix: string }[]>`
      SELECT key_hash, name, display_prefix FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
      expect(row).toMatchObject({ key_hash: hashApiKey(key), name: 'production', display_prefix: key.slice(0, 12) });
      // Nowhere in the database: every row of every table, as text.
      const tables = await page.db.sql<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
      for (const { table_name } of tables) {
        const found = await page.db.sql.unsafe(
          `SELECT 1 FROM "${table_name}" t WHERE t::text LIKE '%' || $1 || '%' LIMIT 1`,
          [key.slice(12)],
        );
        expect(found.length, table_name).toBe(0);
      }
    },
  );

  it(
    'reloading the new key’s page makes no other key: the plaintext is read once, by its session only, ' +
      'within 5 minutes',
    async () => {
      const browser = await page.signedIn('reload@example.com');
      const keyCount = async () => {
        const [{ n }] = await page.db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM api_keys k JOIN account_logins l USING (account_id)
        WHERE l.email_normalized = 'reload@example.com'`;
        return n;
      };
      const { key, posted } = await createKeyOnPage(browser, { name: 'once' });
      expect(posted.location).not.toContain(key.slice(12)); // never in a URL
      const reloaded = await browser.get('/account/keys/new');
      expect(reloaded.status).toBe(200);
      expect(reloaded.text).not.toContain(key.slice(12));
      expect(reloaded.text).toContain('A new key is shown only once');
      expect(await keyCount()).toBe(1);

      // Sealed for its own session: another browser of the account, or a stolen row, reads nothing.
      await browser.post('/account/keys', { name: 'twice' });
      const [flash] = await page.db.sql<{ sealed: Buffer }[]>`SELECT sealed FROM new_key_flashes`;
      expect(flash.sealed.toString('latin1')).not.toMatch(/alk_/);
      const other = page.browser();
      other.cookies.clear();
      await other.get('/account/sign-in');
      await other.post('/account/sign-in', { email: 'reload@example.com', password: PASSWORD });
      expect((await other.get('/account/keys/new')).text).not.toMatch(/id="new-key"/);
      // Past its five minutes it is gone too.
      await page.db.sql`UPDATE new_key_flashes SET expires_at = now() - interval '1 second'`;
      expect((await browser.get('/account/keys/new')).text).not.toMatch(/id="new-key"/);
      expect(await keyCount()).toBe(2);
    },
  );

  it('a test key is made with the Test key box: alk_test_…, no grant, free calls marked X-Sandbox (§17)', async () => {
    const browser = await page.signedIn('sandbox@example.com');
    const { key, page: created } = await createKeyOnPage(browser, { name: 'integration', test: 'on' });
    expect(key).toMatch(/^alk_test_[0-9A-Za-z]{38}$/);
    expect(created.text).toContain('test key');
    expect(created.text).not.toContain('free credits');
    const call = await accountCall(key);
    expect([call.status, call.headers.get('x-sandbox')]).toEqual([200, 'true']);
    expect((await browser.get('/account/keys')).text).toContain(`${key.slice(0, 17)}…`);
  });

  it('the first key grants 200 credits, once: a second key adds nothing', async () => {
    const browser = await page.signedIn('grant@example.com');
    const first = await createKey(browser, 'first');
    expect(first.page.text).toContain(`${FIRST_KEY_GRANT} free credits`);
    const second = await createKey(browser, 'second');
    expect(second.page.text).not.toContain('free credits');
    const body = await (await accountCall(second.key)).json();
    expect(body.balance).toBe(FIRST_KEY_GRANT);
  });

  it('the list shows the account’s own keys only, with name, prefix, created, last used and state', async () => {
    const mine = await page.signedIn('mine@example.com');
    const theirs = await page.signedIn('theirs@example.com');
    const { key } = await createKey(mine, 'mine');
    await createKey(theirs, 'theirs');
    const listed = await mine.get('/account/keys');
    expect(listed.text).toContain('mine');
    expect(listed.text).not.toContain('>theirs<');
    expect(listed.text).toContain(`${key.slice(0, 12)}…`);
    expect(listed.text).toContain('never');
    expect(listed.text).toContain('active');
  });

  it('a key name is required and at most 100 characters', async () => {
    const browser = await page.signedIn('names@example.com');
    await browser.get('/account/keys');
    expect((await browser.post('/account/keys', { name: '   ' })).status).toBe(400);
    const long = await browser.post('/account/keys', { name: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('at most 100 characters');
    expect((await browser.post('/account/keys', { name: 'é'.repeat(100) })).status).toBe(303);
  });

  it('revoking asks for confirmation; the post revokes, and the key answers 401 at once', async () => {
    const browser = await page.signedIn('revoke@example.com');
    const { key } = await createKey(browser, 'to revoke');
    const [{ id }] = await page.db.sql<{ id: number }[]>`
      SELECT id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
    const confirm = await browser.get(`/account/keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Revoke the key');
    expect((await accountCall(key)).status).toBe(200);
    const revoked = await browser.post(`/account/keys/${id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await browser.get(revoked.location!)).text).toContain('is revoked');
    expect((await accountCall(key)).status).toBe(401);
    expect((await browser.get('/account/keys')).text).toContain('revoked');
  });

  it('another account’s key id is refused 404 and nothing changes', async () => {
    const owner = await page.signedIn('owner@example.com');
    const intruder = await page.signedIn('intruder@example.com');
    const { key } = await createKey(owner, 'owned');
    const [{ id }] = await page.db.sql<{ id: number }[]>`
      SELECT id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
    await intruder.get('/account/keys');
    expect((await intruder.get(`/account/keys/${id}/revoke`)).status).toBe(404);
    expect((await intruder.post(`/account/keys/${id}/revoke`, {})).status).toBe(404);
    expect((await accountCall(key)).status).toBe(200);
  });

  it('a key’s last use is recorded after a call, at most once a minute', async () => {
    const browser = await page.signedIn('used@example.com');
    const { key } = await createKey(browser, 'used');
    const lastUsed = async () => {
      const [{ last_used_at }] = await page.db.sql<{ last_used_at: Date | null }[]>`
        SELECT last_used_at FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
      return last_used_at;
    };
    expect(await lastUsed()).toBeNull();
    await accountCall(key);
    await expect.poll(lastUsed).not.toBeNull();
    const first = await lastUsed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < 5; i++) await accountCall(key);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed()).toEqual(first);
    expect((await browser.get('/account/keys')).text).not.toContain('never');
  });

  it('a signed-out browser opening a signed-in page is sent to sign in, and back after it', async () => {
    const browser = page.browser();
    for (const path of ['/account', '/account/keys', '/account/ledger', '/account/ledger.csv']) {
      const answer = await browser.get(path);
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`/account/sign-in?next=${encodeURIComponent(path)}`);
    }
    expect((await browser.post('/account/keys', { name: 'x' })).status).toBe(403);
  });

  const mcpTestName =
    'the keys page shows the MCP client configuration: the service’s /mcp and a placeholder, never a key';
  it(mcpTestName, async () => {
    const browser = await page.signedIn('agent@example.com');
    const { key } = await createKey(browser, 'assistant');
    const keysPage = await browser.get('/account/keys');
    const shown = /<pre class="key" data-testid="mcp-config">([^<]*)<\/pre>/.exec(keysPage.text)?.[1];
    const config = JSON.parse((shown ?? '').replaceAll('&quot;', '"'));
    expect(config).toEqual({
      mcpServers: {
        'advertiser-lookup': {
          type: 'http',
          url: 'http://localhost/mcp',
          headers: { Authorization: 'Bearer YOUR_API_KEY' },
        },
      },
    });
    expect(keysPage.text).not.toContain(key.slice(12));
  });
});
