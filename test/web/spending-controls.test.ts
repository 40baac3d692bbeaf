import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSender } from '../../src/alerts/alert-sender.ts';
import { alertSettingsOf } from '../../src/data/alerts.ts';
import { type AccountPageHarness, createKeyOnPage, startAccountPage } from '../support/account-page.ts';
import type { WebClient } from '../support/web.ts';

/** docs/product-rules.md §14 on the account page: a key's daily cap, the alert threshold and webhook. */
describe('spending controls on the account page', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  async function keyOf(browser: WebClient, name: string) {
    const { key } = await createKeyOnPage(browser, { name });
    const [{ id, account_id }] = await page.db.sql<{ id: number; account_id: number }[]>`
      SELECT id, account_id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
    return { key, id, accountId: account_id };
  }

  const summary = (key: string) =>
    page.app.request('/api/v1/advertiser?name=Acme', { headers: { Authorization: `Bearer ${key}` } });

  it('a daily cap set on the keys page stops the key at the cap; the list shows spend and cap', async () => {
    const browser = await page.signedIn('capper@example.com');
    const { key, id } = await keyOf(browser, 'script');
    const form = await browser.get(`/account/keys/${id}/cap`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Daily cap of “script”');
    const saved = await browser.post(`/account/keys/${id}/cap`, { daily_cap: '6' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/account/keys?capped=${id}`);
    expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain(
      '“script” may spend up to 6 credits per UTC day; 0 are spent today.',
    );
    expect((await summary(key)).status).toBe(404);
    expect((await summary(key)).status).toBe(404);
    const refused = await summary(key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'daily_cap_reached', daily_cap: 6, spent_today: 6 });
    // At its cap, the key stands out in the list.
    expect((await browser.get('/account/keys')).text).toContain(
      '<span class="at-cap">6 of 6 today <strong class="state capped">cap reached</strong>',
    );

    expect((await browser.post(`/account/keys/${id}/cap`, { daily_cap: '' })).status).toBe(303);
    expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain('“script” has no daily cap now.');
    expect((await summary(key)).status).toBe(404);
  });

  it(
    "every key's spend today counts, capped or not: the cap form, getAccountUsage and a cap set later " + 'agree',
    async () => {
      const browser = await page.signedIn('uncapped@example.com');
      const { key, id } = await keyOf(browser, 'live');
      expect((await summary(key)).status).toBe(404);
      expect((await summary(key)).status).toBe(404);
      expect((await browser.get('/account/keys')).text).toContain('6 today, <span class="muted">no cap</span>');
      expect((await browser.get(`/account/keys/${id}/cap`)).text).toContain('Spent today: <strong>6</strong> credits');
      expect((await browser.post(`/account/keys/${id}/cap`, { daily_cap: '9' })).status).toBe(303);
      expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain(
        '“live” may spend up to 9 credits per UTC day; 6 are spent today.',
      );
      const usage = await page.app.request('/api/v1/account/usage', { headers: { Authorization: `Bearer ${key}` } });
      expect((await usage.json()).daily_caps).toEqual([
        { key_prefix: key.slice(0, 12), name: 'live', daily_cap: 9, spent_today: 6 },
      ]);
      expect((await browser.get('/account/keys')).text).not.toContain('cap reached'); // 6 of 9: room for a call
      expect((await summary(key)).status).toBe(404);
      const refused = await summary(key);
      expect(await refused.json()).toMatchObject({ error: 'daily_cap_reached', daily_cap: 9, spent_today: 9 });

      // A test key's calls are free, and count at what they would cost, as with a cap (§17).
      const { key: testKey } = await createKeyOnPage(browser, { name: 'sandbox', test: 'on' });
      const [{ id: testId }] = await page.db.sql<{ id: number }[]>`
      SELECT id FROM api_keys WHERE display_prefix = ${testKey.slice(0, 17)}`;
      const sandboxCall = () =>
        page.app.request('/api/v1/account/usage', { headers: { Authorization: `Bearer ${testKey}` } });
      expect((await sandboxCall()).status).toBe(200); // free in every way: counts nothing
      expect((await summary(testKey)).status).not.toBe(403);
      expect((await browser.get(`/account/keys/${testId}/cap`)).text).toContain(
        'Spent today: <strong>3</strong> credits',
      );
      expect((await browser.post(`/account/keys/${testId}/cap`, { daily_cap: '5' })).status).toBe(303);
      expect(await (await summary(testKey)).json()).toMatchObject({ error: 'daily_cap_reached', spent_today: 3 });
    },
  );

  it('a cap that is no whole number is refused with the reason, next to the field; nothing changes', async () => {
    const browser = await page.signedIn('badcap@example.com');
    const { id } = await keyOf(browser, 'ci');
    for (const daily_cap of ['-1', '0', '2.5', 'ten', '99999999999999']) {
      const refused = await browser.post(`/account/keys/${id}/cap`, { daily_cap });
      expect(refused.status, daily_cap).toBe(400);
      expect(refused.text).toContain('Enter a whole number of credits from 1 to 1,000,000,000,000');
      expect(refused.text).toContain('aria-describedby="form-problem"');
    }
    const [{ daily_cap }] = await page.db.sql`SELECT daily_cap FROM api_keys WHERE id = ${id}`;
    expect(daily_cap).toBeNull();
  });

  it("another account's key cannot be capped or even looked at", async () => {
    const owner = await page.signedIn('owner@example.com');
    const { id } = await keyOf(owner, 'mine');
    const stranger = await page.signedIn('stranger@example.com');
    await stranger.get('/account/keys');
    expect((await stranger.get(`/account/keys/${id}/cap`)).status).toBe(404);
    expect((await stranger.post(`/account/keys/${id}/cap`, { daily_cap: '1' })).status).toBe(404);
    const [{ daily_cap }] = await page.db.sql`SELECT daily_cap FROM api_keys WHERE id = ${id}`;
    expect(daily_cap).toBeNull();
  });

  it('the alerts page sets the threshold (50 by default) and an HTTPS webhook with its signing secret', async () => {
    const browser = await page.signedIn('alerts@example.com');
    const { accountId } = await keyOf(browser, 'prod');
    const shown = await browser.get('/account/alerts');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('value="50"');
    expect(shown.text).toContain('No alert was sent yet.');

    expect((await browser.post('/account/alerts/threshold', { threshold: '150' })).status).toBe(303);
    expect((await browser.get('/account/alerts?saved=threshold')).text).toContain('The alert threshold is saved.');
    expect((await alertSettingsOf(page.db.sql, accountId)).threshold).toBe(150);

    const insecure = await browser.post('/account/alerts/webhook', { url: 'http://example.com/hook' });
    expect(insecure.status).toBe(400);
    expect(insecure.text).toContain('The webhook must be an https:// URL.');
    expect((await browser.post('/account/alerts/webhook', { url: 'https://example.com/hook' })).status).toBe(303);
    const { webhook } = await alertSettingsOf(page.db.sql, accountId);
    expect(webhook?.url).toBe('https://example.com/hook');
    expect(webhook?.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await browser.get('/account/alerts')).text).toContain(webhook!.secret);

    expect((await browser.post('/account/alerts/threshold', { threshold: '' })).status).toBe(303);
    expect((await alertSettingsOf(page.db.sql, accountId)).threshold).toBeNull();
    expect((await browser.post('/account/alerts/webhook/remove', {})).status).toBe(303);
    expect((await alertSettingsOf(page.db.sql, accountId)).webhook).toBeNull();
    expect((await browser.post('/account/alerts/threshold', { threshold: 'lots' })).status).toBe(400);
  });

  it('every delivery of an alert is listed on the page with its state', async () => {
    const browser = await page.signedIn('listed@example.com');
    const { key } = await keyOf(browser, 'prod');
    await browser.post('/account/alerts/threshold', { threshold: '199' });
    expect((await summary(key)).status).toBe(404); // 200 → 197: below 199
    const sender = new AlertSender({
      sql: page.db.sql,
      mailer: { send: async () => {} },
      publicUrl: () => new URL('http://localhost'),
    });
    await sender.sendDue();
    const listed = await browser.get('/account/alerts');
    expect(listed.text).toContain('data-testid="deliveries"');
    expect(listed.text).toContain('197 (below 199)');
    expect(listed.text).toContain('<code>listed@example.com</code>');
    expect(listed.text).toMatch(/<span class="state">delivered<\/span>/);
  });
});
